import { describe, expect, it } from 'vitest';
import { formatBytes, formatDate, formatDateTime, formatMoney } from './format.js';

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

describe('formatBytes', () => {
  it('writes a size in bytes, then in units of 1,000 with at most one decimal', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(999)).toBe('999 bytes');
    expect(formatBytes(1_500)).toBe('1.5 KB');
    expect(formatBytes(12_345_678)).toBe('12.3 MB');
    expect(formatBytes(2_147_483_648)).toBe('2.1 GB');
  });
});
