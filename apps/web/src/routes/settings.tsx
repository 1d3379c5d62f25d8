export { SettingsArea as default } from '../features/settings/settings-area.js';
