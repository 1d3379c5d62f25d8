import { createContext, useContext, type ReactNode } from 'react';
import { useHydrated } from './use-hydrated.js';

/**
 * True while a signed-in tab is its frame (decision 032): when the build renders it
 * (entry-server.tsx `renderFrame`), and in the browser while React hydrates that markup. The frame
 * is the top bar, the area's heading and tab list, and a loading line where the tab goes: the guards
 * let it through (it holds nothing of anyone's), and the tab panel shows its loading line instead
 * of the tab. Once hydrated, the app renders the tab (or sends the visitor away) as usual.
 */
export const AreaFrameContext = createContext(false);

export function useAreaFrame(): boolean {
  return useContext(AreaFrameContext);
}

/** Around the app when it hydrates a frame: the frame while hydrating, the app from then on. */
export function FrameWhileHydrating({ children }: { children: ReactNode }) {
  const hydrated = useHydrated();
  return <AreaFrameContext value={!hydrated}>{children}</AreaFrameContext>;
}

/** On #root of a page that holds a tab's frame (written by scripts/prerender.mjs). */
export const AREA_FRAME_ATTRIBUTE = 'data-area-frame';
