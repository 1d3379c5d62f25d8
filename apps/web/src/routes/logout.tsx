import { redirect } from 'react-router';
import { paths } from '../config/paths.js';
import { logout } from '../features/auth/api/logout.js';

// Log Out in the account menu is a link here (AUTH-FLOW-2), so it works on a page that runs no
// script: the app loads, revokes the session and forgets it, and goes on to the login page.
export async function clientLoader() {
  await logout();
  return redirect(paths.login);
}

export function HydrateFallback() {
  return null;
}

export default function LogoutRoute() {
  return null;
}
