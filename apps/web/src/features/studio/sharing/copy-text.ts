import { showToast } from '../../../lib/toast-store.js';

/** Copies `text` and says so, or that it could not be (then it stays on screen to copy by hand). */
export function copyText(text: string, what: string): void {
  void navigator.clipboard.writeText(text).then(
    () => showToast(`${what} copied.`, 'success'),
    () => showToast(`${what} could not be copied: select it and copy it by hand.`, 'error'),
  );
}
