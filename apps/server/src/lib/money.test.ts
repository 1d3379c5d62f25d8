import { describe, expect, it } from 'vitest';
import { addMoney, fromMinor, minorToNumber, multiplyMoney, normalizeDecimal, toMinor } from './money.js';

describe('money', () => {
  it('adds without floating-point error: 0.10 + 0.20 is exactly 0.30', () => {
    expect(0.1 + 0.2).not.toBe(0.3); // the trap this module exists to avoid
    expect(addMoney('0.10', '0.20')).toBe('0.30');
    expect(addMoney('0.1', '0.2', '0.7')).toBe('1.00');
  });

  it('multiplies exactly: 19.99 × 12 is 239.88', () => {
    let floatTotal = 0;
    for (let month = 0; month < 12; month += 1) floatTotal += 19.99;
    expect(floatTotal).not.toBe(239.88); // a year of monthly charges summed in floats drifts
    expect(addMoney(...Array.from({ length: 12 }, () => '19.99'))).toBe('239.88');
    expect(multiplyMoney('19.99', 12)).toBe('239.88');
    expect(multiplyMoney('0.01', 1_000_000)).toBe('10000.00');
  });

  it('converts to the integer minor units a provider charges, where x * 100 in floats goes wrong', () => {
    expect(0.29 * 100).not.toBe(29);
    expect(minorToNumber(toMinor('0.29'))).toBe(29);
    expect(minorToNumber(toMinor('19.99'))).toBe(1999);
    expect(minorToNumber(toMinor('9999999999.99'))).toBe(999_999_999_999);
  });

  it('reads and writes decimal strings with two places', () => {
    expect(normalizeDecimal('5')).toBe('5.00');
    expect(normalizeDecimal('0.1')).toBe('0.10');
    expect(fromMinor(-250n)).toBe('-2.50');
    expect(toMinor('-2.5')).toBe(-250n);
  });

  it('refuses amounts that are not exact money', () => {
    expect(() => toMinor('1.999')).toThrow(RangeError);
    expect(() => toMinor('1e3')).toThrow(RangeError);
    expect(() => toMinor('abc')).toThrow(RangeError);
    expect(() => multiplyMoney('1.00', 1.5)).toThrow(RangeError);
  });
});
