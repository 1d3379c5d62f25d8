import type { ClientLoaderFunctionArgs } from 'react-router';
import { requireSignedIn } from '../app/guards.js';
import { SettingsArea } from '../features/settings/settings-area.js';
import { prefetchSettingsTab } from '../features/settings/prefetch-tab.js';
import { AreaFrameContext } from '../lib/area-frame.js';

/** The guard, then the data of the tab opened, fetched beside its code. */
export function clientLoader({ request }: ClientLoaderFunctionArgs) {
  const refused = requireSignedIn();
  if (refused) return refused;
  prefetchSettingsTab(new URL(request.url).pathname);
  return null;
}

/** The area's frame, rendered at build time for each tab and shown until the guard has run. */
export function HydrateFallback() {
  return (
    <AreaFrameContext value>
      <SettingsArea />
    </AreaFrameContext>
  );
}

export default SettingsArea;
