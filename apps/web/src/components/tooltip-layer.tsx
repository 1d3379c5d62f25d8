import { styled } from '@mui/material/styles';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';

const TOOLTIP_ATTRIBUTE = 'data-tooltip';
/** As MUI's Tooltip: a pointer that only passes over a button shows nothing. */
const ENTER_DELAY_MS = 100;
/** Time to move the pointer from the element onto its tooltip without it closing. */
const LEAVE_DELAY_MS = 100;
const GAP_PX = 8;
const EDGE_PX = 8;

/**
 * Gives an element the app's tooltip: a short text shown next to it while it is hovered or has the
 * keyboard focus. Visual only: the element must already be named (aria-label) or described by the
 * same words, as every icon button here is.
 */
export function tooltip(title: string): { [TOOLTIP_ATTRIBUTE]: string } {
  return { [TOOLTIP_ATTRIBUTE]: title };
}

const Bubble = styled('div')(({ theme }) => ({
  position: 'fixed',
  zIndex: theme.zIndex.tooltip,
  maxWidth: 300,
  padding: '4px 8px',
  borderRadius: 4,
  // MUI's tooltip colour (grey 700, slightly see-through), as a variable of the theme.
  backgroundColor: theme.vars?.palette.Tooltip.bg ?? 'rgba(97, 97, 97, 0.92)',
  color: (theme.vars ?? theme).palette.common.white,
  fontFamily: theme.typography.fontFamily,
  fontSize: '0.6875rem',
  fontWeight: 500,
  lineHeight: 1.4,
  overflowWrap: 'break-word',
}));

interface Shown {
  text: string;
  anchor: DOMRect;
}

/**
 * The one tooltip of the app, for every element marked with `tooltip()`: it listens on the
 * document, so a table of a hundred icon buttons costs nothing until one is pointed at. (MUI's
 * Tooltip is a component per button that sets state as it mounts: on the admin lists that was a
 * synchronous re-render of every row's buttons as each page of rows arrived.)
 *
 * Shown after a short delay on hover and at once on keyboard focus; it stays while the pointer moves
 * onto it, and Escape dismisses it (WCAG 1.4.13).
 */
export function TooltipLayer() {
  const [shown, setShown] = useState<Shown | null>(null);
  const bubbleRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let anchor: Element | null = null;
    // Whether the last input was the keyboard: focus from a click shows no tooltip (as :focus-visible).
    let keyboardUsed = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const later = (delay: number, action: () => void) => {
      clearTimeout(timer);
      timer = setTimeout(action, delay);
    };
    const show = (element: Element) => {
      const text = element.getAttribute(TOOLTIP_ATTRIBUTE);
      if (!text) return;
      anchor = element;
      setShown({ text, anchor: element.getBoundingClientRect() });
    };
    const hide = () => {
      clearTimeout(timer);
      anchor = null;
      setShown(null);
    };
    const marked = (target: EventTarget | null) =>
      target instanceof Element ? target.closest(`[${TOOLTIP_ATTRIBUTE}]`) : null;
    const onTooltip = (target: EventTarget | null) =>
      target instanceof Node && bubbleRef.current?.contains(target) === true;

    const onPointerOver = (event: PointerEvent) => {
      if (event.pointerType === 'touch') return;
      const element = marked(event.target);
      if (element) {
        if (element !== anchor) later(ENTER_DELAY_MS, () => show(element));
        else clearTimeout(timer);
      } else if (onTooltip(event.target)) {
        clearTimeout(timer);
      } else if (anchor) {
        later(LEAVE_DELAY_MS, hide);
      } else {
        clearTimeout(timer);
      }
    };
    const onPointerOut = (event: PointerEvent) => {
      if (event.relatedTarget === null) later(LEAVE_DELAY_MS, hide); // out of the window
    };
    const onFocusIn = (event: FocusEvent) => {
      const element = marked(event.target);
      if (element && keyboardUsed) {
        clearTimeout(timer);
        show(element);
      }
    };
    const onFocusOut = () => {
      if (anchor?.contains(document.activeElement) !== true) hide();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      keyboardUsed = true;
      if (event.key === 'Escape' && anchor) hide();
    };
    // A press closes the tooltip, or cancels one about to show.
    const onPointerDown = () => {
      keyboardUsed = false;
      hide();
    };
    // Scrolling moves the anchor (focusing a button can scroll its table): the tooltip follows it.
    const onScroll = () => {
      if (anchor) show(anchor);
    };

    // One signal removes every listener when the layer unmounts.
    const listening = new AbortController();
    const { signal } = listening;
    document.addEventListener('pointerover', onPointerOver, { signal });
    document.addEventListener('pointerout', onPointerOut, { signal });
    document.addEventListener('focusin', onFocusIn, { signal });
    document.addEventListener('focusout', onFocusOut, { signal });
    document.addEventListener('keydown', onKeyDown, { signal });
    document.addEventListener('pointerdown', onPointerDown, { signal });
    window.addEventListener('scroll', onScroll, { signal, capture: true });
    return () => {
      clearTimeout(timer);
      listening.abort();
    };
  }, []);

  // Below the element and centred on it, kept inside the window; above it when there is no room below.
  // Measured at the window's left edge, where its width is not squeezed by the window's right edge.
  useLayoutEffect(() => {
    const bubble = bubbleRef.current;
    if (!bubble || !shown) return;
    const { anchor } = shown;
    bubble.style.left = '0px';
    const width = bubble.offsetWidth;
    const height = bubble.offsetHeight;
    const left = Math.min(
      Math.max(EDGE_PX, anchor.left + anchor.width / 2 - width / 2),
      window.innerWidth - width - EDGE_PX,
    );
    const below = anchor.bottom + GAP_PX;
    const top = below + height > window.innerHeight ? anchor.top - GAP_PX - height : below;
    bubble.style.left = `${left}px`;
    bubble.style.top = `${top}px`;
  }, [shown]);

  if (!shown) return null;
  return createPortal(
    // aria-hidden: what it says is the element's own name or description already.
    <Bubble ref={bubbleRef} role="tooltip" aria-hidden="true" style={{ left: 0, top: 0 }}>
      {shown.text}
    </Bubble>,
    document.body,
  );
}
