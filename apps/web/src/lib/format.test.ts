import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatMoney } from './format.js';

describe('formatMoney', () => {
  it('writes en-US currency with two decimals from the API decimal string', () => {
    expect(formatMoney('49', 'usd')).toBe('$49.00');
    expect(formatMoney('990.5', 'USD')).toBe('$990.50');
    expect(formatMoney(1234567.891, 'usd')).toBe('$1,234,567.89');
  });

  it('uses the record’s own currency', () => {
    expect(formatMoney('10', 'eur')).toBe('€10.00');
    expect(formatMoney('10', 'jpy')).toBe('¥10');
  });
});

describe('formatDate', () => {
  it('writes "MMM d, yyyy"', () => {
    expect(formatDate(new Date(2026, 10, 2, 12))).toBe('Nov 2, 2026');
    expect(formatDate(new Date(2025, 0, 31, 12).toISOString())).toBe('Jan 31, 2025');
  });
});

describe('formatDateTime', () => {
  it('adds the time of day to the date', () => {
    expect(formatDateTime(new Date(2026, 10, 22, 18, 30, 12))).toBe('Nov 22, 2026, 6:30:12 PM');
  });
});
