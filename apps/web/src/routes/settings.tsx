import { requireSignedIn } from '../app/guards.js';
import { SettingsArea } from '../features/settings/settings-area.js';
import { AreaFrameContext } from '../lib/area-frame.js';

export const clientLoader = requireSignedIn;

/** The area's frame, rendered at build time for each tab and shown until the guard has run. */
export function HydrateFallback() {
  return (
    <AreaFrameContext value>
      <SettingsArea />
    </AreaFrameContext>
  );
}

export default SettingsArea;
