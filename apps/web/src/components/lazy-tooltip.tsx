import type { TooltipProps } from '@mui/material/Tooltip';
import {
  cloneElement,
  createElement,
  useEffect,
  useState,
  type ComponentType,
  type ReactElement,
  type ReactNode,
  type Ref,
} from 'react';

// MUI's Tooltip (with Popper) loads on the first pointer or focus that reaches an area showing
// tooltips (`loadTooltips`), not with the screen (decision 030).
let Tooltip: ComponentType<TooltipProps> | undefined;
let loading: Promise<void> | undefined;
const listeners = new Set<() => void>();
/** The element that held the focus last: it keeps its markup, so the focus can come back to it. */
let lastFocused: Element | undefined;

/** Fetches the Tooltip's code; call it as the pointer or the focus enters an area with tooltips. */
export function loadTooltips(): void {
  loading ??= import('@mui/material/Tooltip').then((module) => {
    Tooltip = module.default;
    for (const listener of listeners) listener();
  });
}

/**
 * MUI's Tooltip, once its code has loaded (`loadTooltips`); until then the child alone, with the
 * same name and description. An element is never swapped for its tooltipped self while it holds
 * the focus, or while the focus may come back to it (from a dialog it opened): a keyboard user keeps
 * their place. Such an element gets its tooltip at a later hover, once the focus is elsewhere.
 */
export function LazyTooltip({
  title,
  describeChild,
  children,
}: {
  title: ReactNode;
  describeChild?: boolean;
  children: ReactElement<{ ref?: Ref<HTMLElement>; title?: string; 'aria-label'?: string }>;
}) {
  const [node, setNode] = useState<HTMLElement | null>(null);
  // A row drawn once the code is there is new: nothing in it holds the focus.
  const [wrapped, setWrapped] = useState(() => Tooltip !== undefined);

  useEffect(() => {
    if (wrapped || !node) return;
    const free = () => Tooltip !== undefined && !node.contains(document.activeElement);
    const onLoaded = () => {
      if (free() && node !== lastFocused) setWrapped(true);
    };
    const onPointerEnter = () => {
      loadTooltips();
      if (free()) setWrapped(true);
    };
    const onFocusIn = () => {
      lastFocused = node;
      loadTooltips();
    };
    listeners.add(onLoaded);
    node.addEventListener('pointerenter', onPointerEnter);
    node.addEventListener('focusin', onFocusIn);
    return () => {
      listeners.delete(onLoaded);
      node.removeEventListener('pointerenter', onPointerEnter);
      node.removeEventListener('focusin', onFocusIn);
    };
  }, [wrapped, node]);

  if (wrapped && Tooltip) return createElement(Tooltip, { title, describeChild, children });
  // What the Tooltip gives a closed child, so the name and description read the same: a string title
  // names the child unless it has its own name; with `describeChild`, it is the native title.
  const closed = typeof title === 'string' ? (describeChild ? { title } : { 'aria-label': title }) : {};
  return cloneElement(children, { ...closed, ...children.props, ref: setNode });
}
