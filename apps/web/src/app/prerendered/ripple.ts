// MUI's ButtonBase feedback, for the prerendered buttons, links-as-buttons and menu items while
// no React runs them: the ripple from the pointer (TouchRipple), and for keyboard focus the
// Mui-focusVisible class plus, on buttons and icon buttons, the pulsating focus ripple. Without
// the last, keyboard focus on a text or icon button would not show at all (ButtonBase has no
// outline). Durations, sizes and curves are TouchRipple's.

const BUTTON_BASE = '.MuiButtonBase-root';
const RIPPLE_MS = 550;
const PULSATE_ENTER_MS = 200;
const EASE_IN_OUT = 'cubic-bezier(0.4, 0, 0.2, 1)';
const FOCUS_VISIBLE = 'Mui-focusVisible';
const ROOT_MARK = 'data-static-ripple';

interface Ripple {
  ripple: HTMLElement;
  child: HTMLElement;
}

function rippleRoot(host: HTMLElement): HTMLElement {
  const existing = host.querySelector<HTMLElement>(`:scope > [${ROOT_MARK}]`);
  if (existing) return existing;
  const root = document.createElement('span');
  root.setAttribute(ROOT_MARK, '');
  Object.assign(root.style, {
    overflow: 'hidden',
    pointerEvents: 'none',
    position: 'absolute',
    zIndex: '0',
    inset: '0',
    borderRadius: 'inherit',
  });
  host.append(root);
  return root;
}

function start(host: HTMLElement, options: { center: boolean; pulsate: boolean; clientX?: number; clientY?: number }) {
  const rect = host.getBoundingClientRect();
  const center = options.center || options.clientX === undefined || options.clientY === undefined;
  const x = center ? Math.round(rect.width / 2) : Math.round(options.clientX! - rect.left);
  const y = center ? Math.round(rect.height / 2) : Math.round(options.clientY! - rect.top);
  let size: number;
  if (center) {
    size = Math.sqrt((2 * rect.width ** 2 + rect.height ** 2) / 3);
    if (size % 2 === 0) size += 1;
  } else {
    const sizeX = Math.max(Math.abs(host.clientWidth - x), x) * 2 + 2;
    const sizeY = Math.max(Math.abs(host.clientHeight - y), y) * 2 + 2;
    size = Math.sqrt(sizeX ** 2 + sizeY ** 2);
  }
  const ripple = document.createElement('span');
  Object.assign(ripple.style, {
    position: 'absolute',
    width: `${size}px`,
    height: `${size}px`,
    top: `${-(size / 2) + y}px`,
    left: `${-(size / 2) + x}px`,
    opacity: '0.3',
  });
  const child = document.createElement('span');
  Object.assign(child.style, {
    display: 'block',
    width: '100%',
    height: '100%',
    borderRadius: '50%',
    backgroundColor: 'currentColor',
    ...(options.pulsate ? { position: 'absolute', left: '0px', top: '0px' } : {}),
  });
  ripple.append(child);
  rippleRoot(host).append(ripple);
  ripple.animate(
    [
      { transform: 'scale(0)', opacity: 0.1 },
      { transform: 'scale(1)', opacity: 0.3 },
    ],
    { duration: options.pulsate ? PULSATE_ENTER_MS : RIPPLE_MS, easing: EASE_IN_OUT },
  );
  if (options.pulsate) {
    child.animate([{ transform: 'scale(1)' }, { transform: 'scale(0.92)' }, { transform: 'scale(1)' }], {
      duration: 2500,
      delay: 200,
      easing: EASE_IN_OUT,
      iterations: Infinity,
    });
  }
  return { ripple, child };
}

function stop({ ripple, child }: Ripple) {
  const leaving = child.animate([{ opacity: 1 }, { opacity: 0 }], {
    duration: RIPPLE_MS,
    easing: EASE_IN_OUT,
    fill: 'forwards',
  });
  void leaving.finished.then(
    () => ripple.remove(),
    () => ripple.remove(),
  );
}

export interface Ripples {
  /** Removes every ripple and focus mark this script added (the app is about to take over). */
  clear(): void;
}

export function driveRipples(signal: AbortSignal): Ripples {
  let pressed: Ripple | undefined;
  const focusRipples = new Map<HTMLElement, Ripple>();
  const listen = <K extends keyof DocumentEventMap>(type: K, listener: (event: DocumentEventMap[K]) => void) =>
    document.addEventListener(type, listener, { signal, passive: true });
  const hostOf = (target: EventTarget | null) =>
    target instanceof Element ? target.closest<HTMLElement>(BUTTON_BASE) : null;
  const release = () => {
    if (pressed) stop(pressed);
    pressed = undefined;
  };

  listen('pointerdown', (event) => {
    const host = hostOf(event.target);
    if (!host || event.button !== 0 || host.matches('.Mui-disabled, :disabled')) return;
    release();
    // A pressed button pulsates no more (ButtonBase stops the focus ripple on a press).
    const focused = focusRipples.get(host);
    if (focused) {
      stop(focused);
      focusRipples.delete(host);
    }
    pressed = start(host, {
      center: host.classList.contains('MuiIconButton-root'),
      pulsate: false,
      clientX: event.clientX,
      clientY: event.clientY,
    });
    host.addEventListener('pointerleave', release, { once: true, signal });
  });
  listen('pointerup', release);
  listen('pointercancel', release);
  listen('dragstart', release);

  listen('focusin', (event) => {
    const host = hostOf(event.target);
    if (!host || host !== event.target || !host.matches(':focus-visible')) return;
    host.classList.add(FOCUS_VISIBLE);
    if (host.matches('.MuiButton-root, .MuiIconButton-root') && !focusRipples.has(host)) {
      focusRipples.set(host, start(host, { center: true, pulsate: true }));
    }
  });
  listen('focusout', (event) => {
    const host = hostOf(event.target);
    if (!host || host !== event.target) return;
    host.classList.remove(FOCUS_VISIBLE);
    const focused = focusRipples.get(host);
    if (focused) stop(focused);
    focusRipples.delete(host);
  });

  return {
    clear() {
      for (const root of Array.from(document.querySelectorAll(`[${ROOT_MARK}]`))) root.remove();
      for (const host of Array.from(document.querySelectorAll(`.${FOCUS_VISIBLE}`)))
        host.classList.remove(FOCUS_VISIBLE);
      focusRipples.clear();
      pressed = undefined;
    },
  };
}
