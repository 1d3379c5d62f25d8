/*
 * No zod here: the web app's boot chunk reads these codes, and must not carry zod for it
 * (ErrorCodeSchema lives in common.ts with the other schemas).
 */

/**
 * Every error answer's machine-readable `code`, with the HTTP status it always comes with: the one
 * map from code to status (decision 018). `detail` stays the human-readable text and may change
 * wording; `code` never does, so clients branch on it.
 *
 * The first code listed for a status is that status's generic code, used when nothing more specific
 * applies (`bad_request` for a 400, `conflict` for a 409, ...). Adding a code is a compatible change;
 * renaming or removing one, or moving it to another status, is a breaking one.
 */
export const ERROR_STATUS = {
  /** Malformed request the server refuses as a whole (not a field of it: that is a 422). */
  bad_request: 400,
  /** The body is empty or not JSON where JSON was declared. */
  invalid_json: 400,
  /** Login with an unknown e-mail or a wrong password (one answer for both, decision 003). */
  incorrect_credentials: 400,
  /** The account exists but is deactivated. */
  inactive_user: 400,
  /** A password reset token that is unknown, used or expired. */
  invalid_reset_token: 400,
  /** Changing one's password with the wrong current password (or linking single sign-on to it). */
  incorrect_password: 400,
  /** A two-factor code (TOTP or recovery) that is wrong, already used, or not yet valid. */
  invalid_two_factor_code: 400,
  /** A two-factor challenge token that is unknown, expired or no longer matches the account. */
  invalid_two_factor_challenge: 400,
  /** Single sign-on asked for an e-mail whose domain no connection serves. */
  sso_not_configured: 400,
  /** A single sign-on one-time code that is unknown, used or expired. */
  sso_invalid_code: 400,
  /** An e-mail verification link that is unknown, used, expired or no longer matches the account. */
  invalid_verification_token: 400,
  /** Asking for a verification e-mail when the address is verified and no change waits. */
  email_already_verified: 400,
  /** No bearer token, or one that is invalid, expired or revoked. */
  not_authenticated: 401,
  /** A payment was attempted and failed. */
  payment_failed: 402,
  /** The card was refused by the payment provider. */
  card_declined: 402,
  /** Signed in, but not allowed to do this. */
  permission_denied: 403,
  /**
   * A superuser without two-factor sign-in called an admin operation while REQUIRE_SUPERUSER_2FA
   * is on: turn it on first (decision 026).
   */
  two_factor_enrollment_required: 403,
  /** Subscribing or downloading before the account's e-mail address is verified (decision 029). */
  email_not_verified: 403,
  /** Changing, deleting or restoring one of the built-in reports, which ship with the product. */
  report_read_only: 403,
  not_found: 404,
  /** No report with this id or slug is visible to the caller (another tenant's reports are not). */
  report_not_found: 404,
  /** A Studio source (or one of its tables) the caller's tenant does not have. */
  source_not_found: 404,
  /** A Studio extract that does not exist in the caller's tenant. */
  extract_not_found: 404,
  /** An agent conversation (or one of its messages) that is not the caller's in this tenant. */
  conversation_not_found: 404,
  /** A lesson that does not exist, or whose feature is not in this product yet (issue 60). */
  lesson_not_found: 404,
  /** A report schedule that does not exist in the caller's tenant, or is on a report they cannot see. */
  schedule_not_found: 404,
  /** The request contradicts the current state (it may succeed once that changes). */
  conflict: 409,
  /** The e-mail address belongs to another account. */
  email_taken: 409,
  /** A plan someone is still subscribed to cannot be deleted. */
  plan_in_use: 409,
  /** The request did not arrive whole within the server's time limit. */
  request_timeout: 408,
  /**
   * A report saved from a version that is no longer the newest: someone saved since (`detail` says
   * who and when); reload, then apply the change again.
   */
  report_conflict: 409,
  /** A report's slug is taken in its tenant. */
  report_slug_taken: 409,
  /** A Studio extract's name is taken in its tenant (an upload never replaces one: delete it first). */
  extract_name_taken: 409,
  /** A share link that was revoked or has expired (issue 58): it will not work again. */
  share_link_gone: 410,
  precondition_failed: 412,
  body_too_large: 413,
  /** An uploaded extract is larger than STUDIO_EXTRACT_MAX_BYTES; nothing of it is kept. */
  extract_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  /** One or more fields are invalid: `detail` is then a list of `{ loc, msg, type }`. */
  validation_failed: 422,
  /**
   * A Studio query the engine will not run: not exactly one read statement, a function or table a
   * report may not use, a parameter without a value, a sort by a column the result lacks.
   */
  query_refused: 422,
  /** A Studio query ran past its time limit and was stopped: the query, not the server, is slow. */
  query_timeout: 422,
  /** A chart, KPI or list of options would have more rows than the cap: aggregate first. */
  result_too_large: 422,
  /**
   * A chart the server will not draw: its spec asks for data, an image or a link from a URL or file,
   * or for more marks than the cap (CHART_MARKS_MAX), or Vega cannot draw it (`detail` says which).
   */
  chart_refused: 422,
  /**
   * The agent's model gave no answer that passed the checks (schema, guard, preview) within
   * AGENT_MAX_REPAIRS repairs: `detail` says what was tried and why it was refused. Nothing refused ran.
   */
  agent_refused: 422,
  /** An uploaded extract DuckDB cannot read as the CSV or Parquet file it claims to be. */
  extract_invalid: 422,
  /**
   * An uploaded extract took longer than STUDIO_EXTRACT_CONVERT_TIMEOUT_SECONDS to read (type) and was
   * stopped; nothing of it is kept.
   */
  extract_timeout: 422,
  /** Too many attempts; the Retry-After header says when to try again. */
  rate_limited: 429,
  /** The request's headers (cookies, a token, a padding) exceed what the server reads. */
  headers_too_large: 431,
  /** The tenant already runs as many Studio queries as it may at once; Retry-After says when to retry. */
  too_many_queries: 429,
  /** The tenant has used its agent tokens for the day (AGENT_TOKENS_PER_TENANT_PER_DAY); Retry-After says when they come back. */
  agent_budget_exhausted: 429,
  internal_error: 500,
  /** The payment provider could not be reached or failed; nothing the caller can fix. */
  payment_provider_unavailable: 502,
  /** The single sign-on identity provider could not be reached or answered nonsense. */
  sso_provider_unavailable: 502,
  /** The agent's model server could not be reached, failed (5xx, 429) or did not answer in AGENT_TIMEOUT_SECONDS. */
  agent_unavailable: 502,
  /** A database (the platform's or a tenant's) is unreachable; Retry-After says when to retry. */
  service_unavailable: 503,
  /**
   * Attempts cannot be counted because the shared rate-limit store (Redis) is unreachable, so an
   * action that is a target for abuse (sign-in and its second factor, single sign-on, password
   * recovery and reset, sign-up, e-mail verification, the contact form) is refused rather than left
   * unlimited (decision 049); Retry-After says when to retry.
   */
  rate_limit_unavailable: 503,
  /** A Studio source cannot be reached now (a tenant database down); Retry-After says when to retry. */
  source_unavailable: 503,
  /** No model server is configured (AGENT_BASE_URL unset): the guided builder still works. */
  agent_not_configured: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The codes by name, for comparisons that read well and fail to compile on a typo. */
export const ErrorCode = Object.fromEntries(Object.keys(ERROR_STATUS).map((code) => [code, code])) as {
  readonly [Code in ErrorCode]: Code;
};

/** The codes that come with `status`. */
export type ErrorCodeOfStatus<Status extends number> = {
  [Code in ErrorCode]: (typeof ERROR_STATUS)[Code] extends Status ? Code : never;
}[ErrorCode];

/** Whether `value` is one of the codes above (an answer from another server or proxy may carry none). */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value);
}
