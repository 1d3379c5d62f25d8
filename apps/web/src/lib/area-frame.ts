import { createContext, useContext } from 'react';

/**
 * True only while the build renders the frame of a signed-in tab (entry-server.tsx `renderFrame`):
 * the top bar, the area's heading and tab list, and a loading line where the tab goes. The guards
 * let it through (the frame holds nothing of anyone's), and the tab panel shows its loading state
 * instead of the tab. In the browser it is always false: the app renders the tab over the frame.
 */
export const AreaFrameContext = createContext(false);

export function useAreaFrame(): boolean {
  return useContext(AreaFrameContext);
}
