import { styled } from '@mui/material/styles';
import { useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';

export interface TabStripItem {
  /** Stable key and the value `selected` names. */
  value: string;
  label: ReactNode;
  /** Where the tab leads: each tab is a link. */
  to: string;
  id: string;
}

export interface TabStripProps {
  'aria-label': string;
  items: readonly TabStripItem[];
  /** The current tab's value, or false when none is. */
  selected: string | false;
  /** The id of the panel the tabs control. */
  panelId: string;
}

// `theme.vars`: the colours as CSS variables, so they follow the scheme class on <html>.
const Strip = styled('div')(({ theme }) => ({
  position: 'relative',
  display: 'flex',
  overflowX: 'auto',
  scrollbarWidth: 'thin',
  borderBottom: `1px solid ${(theme.vars ?? theme).palette.divider}`,
}));

// Looks like MUI's Tab with its indicator: the selected tab is in the primary colour and underlined.
const Tab = styled(RouterLink)(({ theme }) => ({
  ...theme.typography.button,
  flexShrink: 0,
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: theme.spacing(1),
  minHeight: 48,
  maxWidth: 360,
  padding: '12px 16px',
  color: (theme.vars ?? theme).palette.text.secondary,
  textDecoration: 'none',
  borderBottom: '2px solid transparent',
  outlineOffset: -2,
  '&:hover': { color: (theme.vars ?? theme).palette.text.primary },
  '&[aria-selected="true"]': {
    color: (theme.vars ?? theme).palette.primary.main,
    borderBottomColor: (theme.vars ?? theme).palette.primary.main,
  },
  '&:focus-visible': { outline: `2px solid ${(theme.vars ?? theme).palette.primary.main}` },
}));

const KEY_STEPS: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (index, count) => (index + 1) % count,
  ArrowLeft: (index, count) => (index - 1 + count) % count,
  Home: () => 0,
  End: (_index, count) => count - 1,
};

/**
 * A row of tabs that are links (the WAI-ARIA tabs pattern with manual activation): one tab in the
 * page's Tab order (the selected one, else the first), arrow keys, Home and End move between them,
 * Enter follows the link. The row scrolls sideways when it does not fit, with the selected tab
 * brought into view (in a prerendered frame already before the first paint, by public/pre-paint.js).
 *
 * Our own rather than MUI's Tabs (decision 038): MUI's measures its tabs, indicator and scroll
 * buttons after it mounts and sets state from each measurement, a dozen re-renders of the strip,
 * most of them synchronous, on the first load of every signed-in tab.
 */
export function TabStrip({ 'aria-label': ariaLabel, items, selected, panelId }: TabStripProps) {
  const stripRef = useRef<HTMLDivElement>(null);
  const focusable = items.some((item) => item.value === selected) ? selected : items[0]?.value;

  useLayoutEffect(() => {
    const strip = stripRef.current;
    if (!strip) return;
    const showSelected = () => {
      const tab = strip.querySelector<HTMLElement>('[aria-selected="true"]');
      if (!tab) return;
      const start = tab.offsetLeft;
      if (start < strip.scrollLeft || start + tab.offsetWidth > strip.scrollLeft + strip.clientWidth) {
        strip.scrollLeft = start - (strip.clientWidth - tab.offsetWidth) / 2;
      }
    };
    showSelected();
    // And again when the strip or a tab changes width (a phone turned, the page's scrollbar
    // appearing, a tab's count arriving): a scroll, never a render. jsdom has no ResizeObserver.
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(showSelected);
    observer.observe(strip);
    for (const tab of strip.children) observer.observe(tab);
    return () => observer.disconnect();
  }, [selected, items.length]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = KEY_STEPS[event.key];
    if (!step || event.altKey || event.ctrlKey || event.metaKey) return;
    const tabs = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]'));
    const index = tabs.indexOf(document.activeElement as HTMLElement);
    if (index === -1) return;
    event.preventDefault();
    tabs[step(index, tabs.length)]?.focus();
  };

  return (
    <Strip ref={stripRef} role="tablist" aria-label={ariaLabel} onKeyDown={onKeyDown}>
      {items.map((item) => (
        <Tab
          key={item.value}
          to={item.to}
          id={item.id}
          role="tab"
          aria-selected={item.value === selected}
          aria-controls={panelId}
          tabIndex={item.value === focusable ? 0 : -1}
        >
          {item.label}
        </Tab>
      ))}
    </Strip>
  );
}
