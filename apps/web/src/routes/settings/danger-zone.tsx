export { requireSignedIn as clientLoader } from '../../app/guards.js';
// Nothing in it is anyone's own: the tab's frame holds it whole, its button waiting for the app.
export {
  DangerZoneTab as default,
  DangerZoneTab as HydrateFallback,
} from '../../features/settings/components/danger-zone-tab.js';
