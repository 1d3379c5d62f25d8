/**
 * What MUI's Modal does around an open menu or drawer (ModalManager, FocusTrap), for the
 * prerendered overlays: the page behind is hidden from assistive technology and does not scroll,
 * and focus goes back where it was when the overlay closes.
 */

// Elements that may not carry aria-hidden (MUI's list, from the ARIA in HTML specification).
const NO_ARIA_HIDDEN = new Set(['TEMPLATE', 'SCRIPT', 'STYLE', 'LINK', 'MAP', 'META', 'NOSCRIPT', 'PICTURE']);

/** Hides every other child of <body> from assistive technology and locks the page's scroll; answers the undo. */
export function isolate(keep: Element): () => void {
  const body = document.body;
  const hidden: Element[] = [];
  for (const element of Array.from(body.children)) {
    if (element === keep || NO_ARIA_HIDDEN.has(element.tagName) || element.getAttribute('aria-hidden') === 'true') {
      continue;
    }
    element.setAttribute('aria-hidden', 'true');
    hidden.push(element);
  }
  const { overflow, paddingRight } = body.style;
  // A visible scrollbar disappears with the scroll: pad its width so nothing shifts.
  const scrollbarWidth = window.innerWidth - document.documentElement.clientWidth;
  if (scrollbarWidth > 0) {
    body.style.paddingRight = `${(parseFloat(getComputedStyle(body).paddingRight) || 0) + scrollbarWidth}px`;
  }
  body.style.overflow = 'hidden';
  return () => {
    for (const element of hidden) element.removeAttribute('aria-hidden');
    body.style.overflow = overflow;
    body.style.paddingRight = paddingRight;
  };
}

const TABBABLE = 'a[href], button:not([disabled]), input:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The elements inside `container` that Tab reaches, in order. */
export function tabbables(container: Element): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(TABBABLE)).filter((element) => element.tabIndex >= 0);
}

/** Forces a style recalculation, so a transition starts from the styles set before it. */
export function reflow(element: HTMLElement): void {
  void element.scrollTop;
}
