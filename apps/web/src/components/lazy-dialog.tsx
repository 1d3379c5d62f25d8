import { lazy, Suspense, useState, type ComponentType } from 'react';

/**
 * A dialog whose code (MUI's Dialog and what it holds) loads on its first opening, not with the
 * screen (decision 030). Until then it renders nothing; from then on it stays mounted, so closing
 * keeps its exit transition. Call `preload` as the pointer or the focus reaches the button that
 * opens it, so the dialog shows at once.
 */
export function lazyDialog<P extends object>(load: () => Promise<ComponentType<P>>, isOpen: (props: P) => boolean) {
  const Loaded = lazy(async () => ({ default: await load() })) as unknown as ComponentType<P>;
  function LazyDialog(props: P) {
    const open = isOpen(props);
    const [opened, setOpened] = useState(open);
    if (open && !opened) setOpened(true);
    if (!opened && !open) return null;
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  }
  return Object.assign(LazyDialog, { preload: () => void load() });
}
