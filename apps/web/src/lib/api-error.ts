import { isErrorCode, type ErrorCode } from '@dataplatform/contract';

/** Standard reason phrases for the statuses WEB-ERR-1 maps (400–511). */
export const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  417: 'Expectation Failed',
  418: "I'm a teapot",
  421: 'Misdirected Request',
  422: 'Validation Error',
  423: 'Locked',
  424: 'Failed Dependency',
  425: 'Too Early',
  426: 'Upgrade Required',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported',
  506: 'Variant Also Negotiates',
  507: 'Insufficient Storage',
  508: 'Loop Detected',
  510: 'Not Extended',
  511: 'Network Authentication Required',
};

export const GENERIC_ERROR = 'Generic Error';
export const REQUEST_ABORTED = 'Request aborted';
export const FALLBACK_FAILURE_TEXT = 'Something went wrong.';
export const UNEXPECTED_ERROR_TEXT = 'An unexpected error occurred';

/** The error name for a non-OK status: its standard name, else "Generic Error". */
export function statusName(status: number): string {
  return STATUS_NAMES[status] ?? GENERIC_ERROR;
}

/** A failed API call: where it went, what came back. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly url: string;
  readonly status: number;
  readonly statusText: string;
  readonly body: unknown;
  /** Seconds the answer's Retry-After asked to wait (a 429 or 503 that says when to come back), if it said. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    response: { url: string; status: number; statusText: string; body: unknown; retryAfterSeconds?: number },
    message?: string,
  ) {
    super(message ?? describeStatus(response));
    this.url = response.url;
    this.status = response.status;
    this.statusText = response.statusText;
    this.body = response.body;
    this.retryAfterSeconds = response.retryAfterSeconds;
  }

  /** A request the caller cancelled: no status, the message "Request aborted". */
  static aborted(url: string): ApiError {
    return new ApiError({ url, status: 0, statusText: '', body: undefined }, REQUEST_ABORTED);
  }

  get isAborted(): boolean {
    return this.message === REQUEST_ABORTED && this.status === 0;
  }

  /**
   * The API's machine-readable reason (decision 018): what the app branches on, never the wording
   * of `detail`. Undefined when the answer carried none (a proxy's error page, a network failure).
   */
  get code(): ErrorCode | undefined {
    const body = this.body;
    if (typeof body !== 'object' || body === null || !('code' in body)) return undefined;
    return isErrorCode(body.code) ? body.code : undefined;
  }
}

function describeStatus(response: { status: number; statusText: string; body: unknown }): string {
  const name = statusName(response.status);
  if (name !== GENERIC_ERROR) return name;
  return `${GENERIC_ERROR}: status: ${response.status}; status text: ${response.statusText}; body: ${safeStringify(response.body)}`;
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * The text shown for a failed call (WEB-ERR-2): the first detail message when `detail` is an
 * array, else the detail string, else "Something went wrong.".
 */
export function failureText(body: unknown): string {
  if (typeof body !== 'object' || body === null || !('detail' in body)) return FALLBACK_FAILURE_TEXT;
  const { detail } = body;
  if (Array.isArray(detail)) {
    const first: unknown = detail[0];
    if (typeof first === 'object' && first !== null && 'msg' in first && typeof first.msg === 'string') {
      return first.msg;
    }
    return FALLBACK_FAILURE_TEXT;
  }
  if (typeof detail === 'string' && detail !== '') return detail;
  return FALLBACK_FAILURE_TEXT;
}

/** The message for any thrown value: the API's failure text, an error's message, or the generic text. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return failureText(error.body);
  if (error instanceof Error && error.message !== '') return error.message;
  return UNEXPECTED_ERROR_TEXT;
}
