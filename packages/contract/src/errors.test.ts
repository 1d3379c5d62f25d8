import { describe, expect, it } from 'vitest';
import { HttpErrorSchema, ValidationErrorSchema } from './common.js';
import { ErrorCodeSchema } from './common.js';
import { ERROR_STATUS, ErrorCode, isErrorCode } from './errors.js';

describe('error codes', () => {
  it('are snake_case and come with a 4xx or 5xx status', () => {
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(status >= 400 && status < 600, code).toBe(true);
    }
  });

  it('name themselves, and only they are codes', () => {
    for (const code of Object.keys(ERROR_STATUS)) {
      expect(ErrorCode[code as ErrorCode]).toBe(code);
      expect(isErrorCode(code)).toBe(true);
    }
    expect(Object.keys(ErrorCode)).toEqual(Object.keys(ERROR_STATUS));
    for (const other of ['toString', 'constructor', 'Not Found', '', 404, undefined]) {
      expect(isErrorCode(other)).toBe(false);
    }
  });

  it('list the generic code of each common status first', () => {
    const firstOf = (status: number) => Object.entries(ERROR_STATUS).find(([, s]) => s === status)?.[0];
    expect(firstOf(400)).toBe('bad_request');
    expect(firstOf(402)).toBe('payment_failed');
    expect(firstOf(409)).toBe('conflict');
  });

  it('are part of every error body', () => {
    expect(ErrorCodeSchema.options).toEqual(Object.keys(ERROR_STATUS));
    expect(HttpErrorSchema.safeParse({ detail: 'Not Found', code: 'not_found' }).success).toBe(true);
    expect(HttpErrorSchema.safeParse({ detail: 'Not Found' }).success).toBe(false);
    expect(HttpErrorSchema.safeParse({ detail: 'Not Found', code: 'missing' }).success).toBe(false);
    const item = { loc: ['body', 'email'], msg: 'Invalid email address', type: 'invalid_format' };
    expect(ValidationErrorSchema.safeParse({ detail: [item], code: 'validation_failed' }).success).toBe(true);
    expect(ValidationErrorSchema.safeParse({ detail: [item], code: 'bad_request' }).success).toBe(false);
  });
});
