export { RedirectIfAuthenticated as default } from '../app/guards.js';
