export type ToastSeverity = 'success' | 'error' | 'info' | 'warning';

export interface Toast {
  id: number;
  message: string;
  severity: ToastSeverity;
}

/** Toast and snackbar auto-hide (WEB-UI-5). */
export const TOAST_AUTO_HIDE_MS = 6000;

type Listener = () => void;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<Listener>();

function emit(): void {
  for (const listener of listeners) listener();
}

/** Adds a toast; the Toaster shows the newest, and drops older ones when it closes. */
export function showToast(message: string, severity: ToastSeverity = 'info'): void {
  toasts = [...toasts, { id: nextId++, message, severity }];
  emit();
}

/** Closes a toast and every older one (they were replaced by it on screen). */
export function dismissToast(id: number): void {
  toasts = toasts.filter((toast) => toast.id > id);
  emit();
}

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getToasts(): readonly Toast[] {
  return toasts;
}
