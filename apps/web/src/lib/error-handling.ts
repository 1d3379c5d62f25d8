import { ApiError, errorText } from './api-error.js';
import { errorLog } from './error-log.js';
import { navigateTo } from './navigation.js';
import { clearSession } from './session.js';
import { showToast } from './toast-store.js';

/** Fixed toast texts of SPEC.md section 8. */
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

/**
 * The global error handling of SPEC.md section 8: every error is logged; a 401 drops the session
 * and goes to /login; anything else becomes an error toast. Cancelled requests are only logged.
 */
export function handleGlobalError(error: unknown): void {
  const apiError = error instanceof ApiError ? error : undefined;
  const message = apiError?.isAborted ? apiError.message : globalErrorText(error);
  errorLog.add({ message, status: apiError?.status, url: apiError?.url });
  if (apiError?.isAborted) return;
  if (apiError?.status === 401) {
    clearSession();
    navigateTo('/login', { replace: true });
    return;
  }
  showToast(message, 'error');
}
