export { DangerZoneTab as default } from '../../features/settings/components/danger-zone-tab.js';
