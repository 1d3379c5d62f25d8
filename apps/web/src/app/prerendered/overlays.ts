import { OPENS, STATIC_OVERLAY } from '../../lib/prerendered-hooks.js';
import { isolate, reflow, tabbables } from './modal.js';

// MUI's transition curves and durations (theme.transitions), as its Grow, Slide and Fade use them.
const EASE_IN_OUT = 'cubic-bezier(0.4, 0, 0.2, 1)';
const EASE_OUT = 'cubic-bezier(0.0, 0, 0.2, 1)';
const SHARP = 'cubic-bezier(0.4, 0, 0.6, 1)';
const ENTERING_SCREEN_MS = 225;
const LEAVING_SCREEN_MS = 195;
/** Popover's marginThreshold: how close to the window's edge a menu may come. */
const MARGIN = 16;
/** Grow's start and end: scale(x, x²). */
const SHRUNK = 'scale(0.75, 0.5625)';

/** Grow's 'auto' duration for a menu of this height (theme.transitions.getAutoHeightDuration). */
function growDuration(height: number): number {
  if (!height) return 0;
  const constant = height / 36;
  return Math.min(Math.round((4 + 15 * constant ** 0.25 + constant / 5) * 10), 3000);
}

/** Under the button, left edges aligned, shifted to stay 16 px inside the window (Popover). */
function place(button: HTMLElement, paper: HTMLElement) {
  const anchor = button.getBoundingClientRect();
  const width = paper.offsetWidth;
  const height = paper.offsetHeight;
  let top = anchor.top + anchor.height;
  let left = anchor.left;
  let originX = 0;
  let originY = 0;
  if (top < MARGIN) {
    originY += top - MARGIN;
    top = MARGIN;
  } else if (top + height > window.innerHeight - MARGIN) {
    const diff = top + height - (window.innerHeight - MARGIN);
    top -= diff;
    originY += diff;
  }
  if (left < MARGIN) {
    originX += left - MARGIN;
    left = MARGIN;
  } else if (left + width > window.innerWidth - MARGIN) {
    const diff = left + width - (window.innerWidth - MARGIN);
    left -= diff;
    originX += diff;
  }
  paper.style.top = `${Math.round(top)}px`;
  paper.style.left = `${Math.round(left)}px`;
  paper.style.transformOrigin = `${originX}px ${originY}px`;
}

interface OpenOverlay {
  wrapper: HTMLElement;
  button: HTMLElement;
  kind: 'menu' | 'drawer';
  /** Closes it; `animate` false hides it at once. */
  close(options: { restoreFocus: boolean; animate: boolean }): void;
}

export interface Overlays {
  /** Settles when no overlay is open (at once if none is). */
  whenClosed(): Promise<void>;
  /** Closes whatever is open at once, without moving focus (the app is about to take over). */
  closeNow(): void;
}

/**
 * Drives the prerendered top-bar menus and drawer (static-overlays.tsx) as MUI's Menu and Drawer
 * behave: a menu opens under its button, grows in, takes focus on its first item, moves with the
 * arrow keys, Home, End and the first letters of an item, and closes on Escape, Tab, a click
 * outside or a choice, giving focus back to its button. The drawer slides in over a backdrop,
 * keeps Tab inside itself and closes the same ways. Links in them are ordinary links: a page
 * loads, as prerendered pages do.
 */
export function driveOverlays(signal: AbortSignal): Overlays {
  let current: OpenOverlay | undefined;
  /** The hide still pending from the last close, finished at once if something opens first. */
  let finishClosing: (() => void) | undefined;
  /** Whether the last key pressed was Shift+Tab, to know which end of the drawer focus wraps to. */
  let shiftTab = false;
  /** Told when the open overlay closes. */
  let onClosed: (() => void)[] = [];

  /** A fresh copy of an overlay's prerendered markup, in the page; removed when it has closed. */
  const mount = (template: HTMLTemplateElement) => {
    const wrapper = document.createElement('div');
    wrapper.append(template.content.cloneNode(true));
    template.after(wrapper);
    return wrapper;
  };

  function openMenu(button: HTMLElement, wrapper: HTMLElement): OpenOverlay | undefined {
    const root = wrapper.firstElementChild as HTMLElement | null;
    const paper = wrapper.querySelector<HTMLElement>('.MuiPopover-paper');
    const items = Array.from(wrapper.querySelectorAll<HTMLElement>('[role="menuitem"]'));
    if (!root || !paper || items.length === 0) return undefined;

    place(button, paper);
    // Grow in: opacity over the whole duration, the scale over its first two thirds.
    const duration = growDuration(paper.clientHeight);
    paper.style.opacity = '0';
    paper.style.transform = SHRUNK;
    reflow(paper);
    paper.style.transition = `opacity ${duration}ms ${EASE_IN_OUT} 0ms, transform ${Math.round(duration * 0.666)}ms ${EASE_IN_OUT} 0ms`;
    paper.style.opacity = '1';
    paper.style.transform = 'scale(1, 1)';
    const entered = window.setTimeout(() => {
      paper.style.transform = 'none';
    }, duration);

    const restore = isolate(wrapper.parentElement ?? wrapper);
    button.setAttribute('aria-controls', root.id);
    button.setAttribute('aria-expanded', 'true');
    // The first item takes focus and the roving tab stop (MenuList).
    for (const item of items) item.tabIndex = -1;
    items[0]!.tabIndex = 0;
    items[0]!.focus();

    return {
      wrapper,
      button,
      kind: 'menu',
      close({ restoreFocus, animate }) {
        window.clearTimeout(entered);
        button.removeAttribute('aria-controls');
        button.removeAttribute('aria-expanded');
        restore();
        if (restoreFocus) button.focus();
        const hide = () => wrapper.remove();
        if (!animate) return hide();
        const exit = growDuration(paper.clientHeight);
        paper.style.transition = `opacity ${exit}ms ${EASE_IN_OUT} 0ms, transform ${Math.round(exit * 0.666)}ms ${EASE_IN_OUT} ${Math.round(exit * 0.333)}ms`;
        paper.style.opacity = '0';
        paper.style.transform = SHRUNK;
        const timer = window.setTimeout(() => {
          finishClosing = undefined;
          hide();
        }, exit);
        finishClosing = () => {
          window.clearTimeout(timer);
          hide();
        };
      },
    };
  }

  function openDrawer(button: HTMLElement, wrapper: HTMLElement): OpenOverlay | undefined {
    const paper = wrapper.querySelector<HTMLElement>('.MuiDrawer-paper');
    const backdrop = wrapper.querySelector<HTMLElement>('.MuiBackdrop-root');
    if (!paper || !backdrop) return undefined;

    // Slide in from the left edge, the backdrop fading in (Slide, Fade).
    const offscreen = () => `translateX(-${Math.round(paper.getBoundingClientRect().right)}px)`;
    paper.style.transform = offscreen();
    backdrop.style.opacity = '0';
    reflow(paper);
    paper.style.transition = `transform ${ENTERING_SCREEN_MS}ms ${EASE_OUT} 0ms`;
    paper.style.transform = 'none';
    backdrop.style.transition = `opacity ${ENTERING_SCREEN_MS}ms ${EASE_IN_OUT} 0ms`;
    backdrop.style.opacity = '1';

    const restore = isolate(wrapper.parentElement ?? wrapper);
    paper.focus();

    return {
      wrapper,
      button,
      kind: 'drawer',
      close({ restoreFocus, animate }) {
        restore();
        if (restoreFocus) button.focus();
        const hide = () => wrapper.remove();
        if (!animate) return hide();
        paper.style.transition = `transform ${LEAVING_SCREEN_MS}ms ${SHARP} 0ms`;
        paper.style.transform = offscreen();
        backdrop.style.transition = `opacity ${LEAVING_SCREEN_MS}ms ${EASE_IN_OUT} 0ms`;
        backdrop.style.opacity = '0';
        const timer = window.setTimeout(() => {
          finishClosing = undefined;
          hide();
        }, LEAVING_SCREEN_MS);
        finishClosing = () => {
          window.clearTimeout(timer);
          hide();
        };
      },
    };
  }

  function open(button: HTMLElement) {
    const id = button.getAttribute(OPENS) ?? '';
    const template = document.querySelector<HTMLTemplateElement>(`template[${STATIC_OVERLAY}="${id}"]`);
    if (!template) return;
    finishClosing?.();
    current?.close({ restoreFocus: false, animate: false });
    const wrapper = mount(template);
    const isDrawer = wrapper.querySelector('.MuiDrawer-root') !== null;
    current = isDrawer ? openDrawer(button, wrapper) : openMenu(button, wrapper);
    if (!current) wrapper.remove();
  }

  function close({ restoreFocus = true, animate = true } = {}) {
    const closing = current;
    current = undefined;
    closing?.close({ restoreFocus, animate });
    for (const listener of onClosed) listener();
    onClosed = [];
  }

  // MenuList's type-ahead: the letters typed within half a second pick the next matching item.
  const typed = { keys: [] as string[], repeating: true, previousKeyMatched: true, lastTime: 0 };
  function typeAhead(event: KeyboardEvent, items: HTMLElement[], focused: HTMLElement) {
    const key = event.key.toLowerCase();
    const now = performance.now();
    if (typed.keys.length > 0) {
      if (now - typed.lastTime > 500) {
        typed.keys = [];
        typed.repeating = true;
        typed.previousKeyMatched = true;
      } else if (typed.repeating && key !== typed.keys[0]) {
        typed.repeating = false;
      }
    }
    typed.lastTime = now;
    typed.keys.push(key);
    const text = (item: HTMLElement) => item.innerText.trim().toLowerCase();
    const matches = (item: HTMLElement) =>
      text(item).length > 0 &&
      (typed.repeating ? text(item)[0] === typed.keys[0] : text(item).startsWith(typed.keys.join('')));
    const keepCurrent = !typed.repeating && matches(focused);
    const start = items.indexOf(focused);
    const next = [...items.slice(start + 1), ...items.slice(0, start + 1)].find(matches);
    if (typed.previousKeyMatched && (keepCurrent || next)) {
      event.preventDefault();
      if (!keepCurrent && next) moveTo(items, next);
    } else {
      typed.previousKeyMatched = false;
    }
  }

  function moveTo(items: HTMLElement[], item: HTMLElement) {
    for (const other of items) other.tabIndex = other === item ? 0 : -1;
    item.focus();
  }

  document.addEventListener(
    'click',
    (event) => {
      const target = event.target as Element;
      if (current) {
        // A click on the backdrop closes; a chosen item closes too, and its link loads the page.
        if (target.closest('.MuiBackdrop-root')) close();
        else if (current.kind === 'menu' && target.closest('[role="menuitem"]')) close();
        else if (current.kind === 'drawer' && target.closest('a[href]')) close();
        return;
      }
      const button = target.closest<HTMLElement>(`[${OPENS}]`);
      if (button) open(button);
    },
    { signal },
  );

  document.addEventListener(
    'keydown',
    (event) => {
      if (event.key === 'Tab') shiftTab = event.shiftKey;
      if (!current) return;
      if (event.key === 'Escape') {
        close();
        return;
      }
      if (current.kind !== 'menu') return;
      const items = Array.from(current.wrapper.querySelectorAll<HTMLElement>('[role="menuitem"]'));
      const focused = document.activeElement as HTMLElement | null;
      const index = focused ? items.indexOf(focused) : -1;
      if (event.key === 'Tab') {
        event.preventDefault();
        close();
      } else if (event.ctrlKey || event.metaKey || event.altKey) {
        return;
      } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp' || event.key === 'Home' || event.key === 'End') {
        event.preventDefault();
        const last = items.length - 1;
        const next =
          event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : event.key === 'ArrowDown'
                ? index >= last
                  ? 0
                  : index + 1
                : index <= 0
                  ? last
                  : index - 1;
        moveTo(items, items[next]!);
      } else if (event.key.length === 1 && focused && index >= 0) {
        typeAhead(event, items, focused);
      }
    },
    { signal },
  );

  // Focus stays inside an open overlay (FocusTrap): Tab past either end of the drawer wraps round.
  document.addEventListener(
    'focusin',
    (event) => {
      if (!current) return;
      const target = event.target as HTMLElement;
      const content = current.wrapper.querySelector<HTMLElement>('.MuiPaper-root');
      if (!content || content.contains(target)) return;
      const stops = tabbables(content);
      const menuItem = current.wrapper.querySelector<HTMLElement>('[role="menuitem"][tabindex="0"]');
      const fallback = current.kind === 'menu' ? menuItem : shiftTab ? stops.at(-1) : stops[0];
      (fallback ?? content).focus();
    },
    { signal },
  );

  // A menu follows its button when the window changes size (Popover does).
  window.addEventListener(
    'resize',
    () => {
      const paper = current?.kind === 'menu' ? current.wrapper.querySelector<HTMLElement>('.MuiPopover-paper') : null;
      if (current && paper) place(current.button, paper);
    },
    { signal },
  );

  return {
    whenClosed() {
      return current ? new Promise((resolve) => onClosed.push(resolve)) : Promise.resolve();
    },
    closeNow() {
      finishClosing?.();
      close({ restoreFocus: false, animate: false });
    },
  };
}
