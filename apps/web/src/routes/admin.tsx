import { requireSuperuser } from '../app/guards.js';
import { AdminArea } from '../features/admin/admin-area.js';
import { AreaFrameContext } from '../lib/area-frame.js';

export const clientLoader = requireSuperuser;

/** The area's frame, rendered at build time for each tab and shown until the guard has run. */
export function HydrateFallback() {
  return (
    <AreaFrameContext value>
      <AdminArea />
    </AreaFrameContext>
  );
}

export default AdminArea;
