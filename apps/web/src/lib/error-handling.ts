import { ApiError, errorText, FALLBACK_FAILURE_TEXT, failureText } from './api-error.js';
import { errorLog } from './error-log.js';
import { paths } from '../config/paths.js';
import { navigateTo } from './navigation.js';
import { clearSession } from './session.js';
import { showToast } from './toast-store.js';

/** Fixed toast texts (WEB-ERR-3). */
export const GLOBAL_ERROR_TEXTS = {
  403: 'You do not have permission to perform this action',
  404: 'The requested resource was not found',
  500: 'An internal server error occurred',
} as const;

/** The text the global handler shows for an error. */
export function globalErrorText(error: unknown): string {
  if (error instanceof ApiError && (error.status === 403 || error.status === 404 || error.status === 500)) {
    return GLOBAL_ERROR_TEXTS[error.status];
  }
  return errorText(error);
}

/** How one query or mutation wants its failure told (its TanStack Query `meta`). */
export interface ErrorPresentation {
  /**
   * The operation's own failure text (e.g. "Failed to delete plan", SET-PLANS-10); the server's
   * reason follows it when a 4xx carried one: "Failed to create subscription: Your card was declined."
   */
  errorText?: string;
  /** false: no toast, because the screen shows the failure itself (still logged; a 401 still signs out). */
  errorToast?: boolean;
}

/** The toast text for an operation with its own failure text. */
export function operationErrorText(error: unknown, errorText: string): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401) {
    const reason = failureText(error.body);
    if (reason !== FALLBACK_FAILURE_TEXT) return `${errorText}: ${reason}`;
  }
  return errorText;
}

/**
 * The global error handling (WEB-ERR-3, WEB-ERR-4): every error is logged; a 401 drops the session
 * and goes to /login; anything else becomes an error toast. Cancelled requests are only logged.
 */
export function handleGlobalError(error: unknown, presentation: ErrorPresentation = {}): void {
  const apiError = error instanceof ApiError ? error : undefined;
  const message = apiError?.isAborted
    ? apiError.message
    : presentation.errorText !== undefined
      ? operationErrorText(error, presentation.errorText)
      : globalErrorText(error);
  errorLog.add({ message, status: apiError?.status, url: apiError?.url });
  if (apiError?.isAborted) return;
  if (apiError?.status === 401) {
    clearSession();
    navigateTo(paths.login, { replace: true });
    return;
  }
  if (presentation.errorToast === false) return;
  showToast(message, 'error');
}
