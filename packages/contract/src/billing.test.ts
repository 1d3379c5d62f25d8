import { describe, expect, it } from 'vitest';
import { passesLuhn } from './billing.js';

describe('passesLuhn (the one card-number check of the web form and the sandbox)', () => {
  it('accepts the test cards and refuses a changed digit, letters and lengths no card has', () => {
    for (const number of ['4242424242424242', '378282246310005', '5555555555554444', '6011111111111117']) {
      expect(passesLuhn(number), number).toBe(true);
    }
    for (const number of [
      '4242424242424241',
      '4242 4242 4242 4242',
      '42424242424242x2',
      '00000000000',
      '0'.repeat(20),
      '',
    ]) {
      expect(passesLuhn(number), number).toBe(false);
    }
  });
});
