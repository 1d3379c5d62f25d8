import { NEEDS_APP } from '../../lib/prerendered-hooks.js';

const FIELD = 'input:not([type="hidden"]), textarea';
const FOCUSED = 'Mui-focused';

export interface FormBridge {
  /** Puts the fields' markup back as prerendered: the app hydrates next. */
  restoreMarkup(): void;
  /** Hands the app what happened before it ran: focus, fields left, a send. */
  replay(): void;
}

/** Sets a field's value as typing does, so React's change tracking sees it and the app's onChange runs. */
function typeInto(field: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * The parts of a prerendered page only the app can run (the contact form, an auth screen's card,
 * marked `needsApp`) load it on the first sign of use: the pointer coming over them, a touch,
 * focus. Until the app has taken them over, this keeps them usable and honest: a focused field
 * looks focused, a filled one hides the label it would otherwise cover, a send is held rather than
 * submitted natively, a button pressed is noted, and each field left is noted. Once the app runs,
 * what was typed is given to it (a form library may have cleared the fields to its defaults as it
 * took them), focus and the fields left are told to it, so it checks them as it would have, a held
 * send is made again and a noted press is made again.
 */
export function bridgeForms(signal: AbortSignal, loadApp: () => void): FormBridge {
  const parts = Array.from(document.querySelectorAll<HTMLElement>(`[${NEEDS_APP}]`));
  const left = new Set<HTMLInputElement | HTMLTextAreaElement>();
  const held = new Set<HTMLFormElement>();
  const typed = new Map<HTMLInputElement | HTMLTextAreaElement, string>();
  let pressed: HTMLButtonElement | undefined;
  let appTookOver = false;

  const fieldOf = (target: EventTarget | null) =>
    target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement
      ? target.closest(`[${NEEDS_APP}]`) && target.matches(FIELD)
        ? target
        : null
      : null;
  /** The elements of a field that MUI marks focused, and its floating label. */
  const decorOf = (field: Element) => {
    const control = field.closest('.MuiFormControl-root');
    return {
      marked: [field.closest('.MuiInputBase-root'), control?.querySelector('.MuiFormLabel-root')].filter(
        (element): element is Element => element != null,
      ),
      label: control?.querySelector<HTMLElement>('.MuiInputLabel-root') ?? null,
    };
  };
  const showValue = (field: HTMLInputElement | HTMLTextAreaElement) => {
    const { label } = decorOf(field);
    // The unshrunk label sits where the text goes; the app floats it above once it runs.
    if (label) label.style.visibility = field.value === '' ? '' : 'hidden';
  };

  for (const part of parts) {
    for (const type of ['pointerover', 'pointerdown', 'touchstart', 'focusin'] as const) {
      part.addEventListener(type, loadApp, { signal, passive: true, once: true });
    }
  }
  document.addEventListener(
    'focusin',
    (event) => {
      const field = fieldOf(event.target);
      if (!field || appTookOver) return;
      for (const element of decorOf(field).marked) element.classList.add(FOCUSED);
    },
    { signal },
  );
  document.addEventListener(
    'focusout',
    (event) => {
      const field = fieldOf(event.target);
      if (!field) return;
      left.add(field);
      if (!appTookOver) for (const element of decorOf(field).marked) element.classList.remove(FOCUSED);
    },
    { signal },
  );
  document.addEventListener(
    'input',
    (event) => {
      const field = fieldOf(event.target);
      if (field && !appTookOver) showValue(field);
    },
    { signal },
  );
  // A plain button (not a send) pressed before the app runs, such as "Sign in with SSO": pressed again once it does.
  document.addEventListener(
    'click',
    (event) => {
      const button = event.target instanceof Element ? event.target.closest('button') : null;
      if (!button || appTookOver || button.type === 'submit' || !button.closest(`[${NEEDS_APP}]`)) return;
      pressed = button;
      loadApp();
    },
    { signal },
  );
  // Listening on the document, this runs after the app's own handler once the app runs: a send the
  // app took (it prevents the native one) is left alone, any other is held for the app.
  document.addEventListener(
    'submit',
    (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || !form.closest(`[${NEEDS_APP}]`) || event.defaultPrevented) return;
      event.preventDefault();
      held.add(form);
      loadApp();
    },
    { signal },
  );

  return {
    restoreMarkup() {
      appTookOver = true;
      for (const part of parts) {
        for (const field of Array.from(part.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(FIELD))) {
          if (field.value !== '') typed.set(field, field.value);
          const { marked, label } = decorOf(field);
          for (const element of marked) element.classList.remove(FOCUSED);
          if (label) label.style.visibility = '';
        }
      }
    },
    replay() {
      for (const [field, value] of typed) if (field.isConnected && field.value !== value) typeInto(field, value);
      typed.clear();
      const active = fieldOf(document.activeElement);
      if (active) active.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
      for (const field of left) {
        if (field !== active) field.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
      }
      left.clear();
      for (const form of held) form.requestSubmit();
      held.clear();
      if (pressed?.isConnected) pressed.click();
      pressed = undefined;
    },
  };
}
