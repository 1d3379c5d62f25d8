import { createContext, useContext } from 'react';

/**
 * True while a signed-in tab is its frame: the area route's `HydrateFallback` (src/routes/settings.tsx),
 * rendered at build time for each tab and in the browser until the route's guard has run. The frame
 * is the top bar, the area's heading and tab list, and a loading line where the tab goes: the guards
 * let it through (it holds nothing of anyone's), and the tab panel shows its loading line instead
 * of the tab. Once hydrated, the app renders the tab (or sends the visitor away) as usual.
 */
export const AreaFrameContext = createContext(false);

export function useAreaFrame(): boolean {
  return useContext(AreaFrameContext);
}
