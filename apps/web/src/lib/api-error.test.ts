import { describe, expect, it } from 'vitest';
import { ApiError, errorText, failureText, GENERIC_ERROR, STATUS_NAMES, statusName } from './api-error.js';

describe('status names (WEB-ERR-1)', () => {
  it('names every status from 400 to 511 that HTTP defines, 422 as "Validation Error"', () => {
    expect(statusName(400)).toBe('Bad Request');
    expect(statusName(401)).toBe('Unauthorized');
    expect(statusName(403)).toBe('Forbidden');
    expect(statusName(404)).toBe('Not Found');
    expect(statusName(422)).toBe('Validation Error');
    expect(statusName(500)).toBe('Internal Server Error');
    expect(statusName(511)).toBe('Network Authentication Required');
    for (const status of Object.keys(STATUS_NAMES).map(Number)) {
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThanOrEqual(511);
    }
  });

  it('answers "Generic Error" for any other status', () => {
    for (const status of [302, 399, 419, 512, 599]) expect(statusName(status)).toBe(GENERIC_ERROR);
  });

  it('gives an ApiError the status name, or "Generic Error" with status, status text and body', () => {
    const named = new ApiError({ url: '/api/v1/x', status: 422, statusText: 'Unprocessable Entity', body: {} });
    expect(named.message).toBe('Validation Error');
    expect(named).toMatchObject({ url: '/api/v1/x', status: 422, statusText: 'Unprocessable Entity', body: {} });
    const generic = new ApiError({ url: '/api/v1/x', status: 599, statusText: 'Odd', body: { detail: 'x' } });
    expect(generic.message).toContain(GENERIC_ERROR);
    expect(generic.message).toContain('599');
    expect(generic.message).toContain('Odd');
    expect(generic.message).toContain('{"detail":"x"}');
  });

  it('marks a cancelled request with "Request aborted"', () => {
    const aborted = ApiError.aborted('/api/v1/users/me');
    expect(aborted.message).toBe('Request aborted');
    expect(aborted.isAborted).toBe(true);
    expect(aborted.url).toBe('/api/v1/users/me');
  });

  it("reads the API's error code, and only a known one", () => {
    const answer = (body: unknown) => new ApiError({ url: '/api/v1/x', status: 409, statusText: 'Conflict', body });
    expect(answer({ detail: 'The user with this email already exists in the system', code: 'email_taken' }).code).toBe(
      'email_taken',
    );
    for (const body of [{ detail: 'x' }, { detail: 'x', code: 'no_such_code' }, { code: 42 }, 'text', undefined]) {
      expect(answer(body).code).toBeUndefined();
    }
    expect(ApiError.aborted('/api/v1/x').code).toBeUndefined();
  });
});

describe('failure text (WEB-ERR-2)', () => {
  it('takes the first detail message when detail is an array', () => {
    const body = {
      detail: [
        { loc: ['body', 'email'], msg: 'Invalid email address', type: 'value_error' },
        { loc: ['body', 'password'], msg: 'Password is required', type: 'missing' },
      ],
    };
    expect(failureText(body)).toBe('Invalid email address');
  });

  it('takes the detail string otherwise', () => {
    expect(failureText({ detail: 'Incorrect email or password' })).toBe('Incorrect email or password');
  });

  it.each([
    [undefined],
    [null],
    ['plain text'],
    [{}],
    [{ detail: [] }],
    [{ detail: '' }],
    [{ detail: 42 }],
    [{ detail: [{}] }],
  ])('falls back to "Something went wrong." for %j', (body) => {
    expect(failureText(body)).toBe('Something went wrong.');
  });

  it('reads API errors by the rule, other errors by their message, anything else generically', () => {
    const apiError = new ApiError({ url: '/x', status: 400, statusText: 'Bad Request', body: { detail: 'Nope' } });
    expect(errorText(apiError)).toBe('Nope');
    expect(errorText(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
    expect(errorText('a string')).toBe('An unexpected error occurred');
    expect(errorText(new Error(''))).toBe('An unexpected error occurred');
  });
});
