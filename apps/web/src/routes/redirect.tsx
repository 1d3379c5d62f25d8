import { redirect } from 'react-router';
import { paths } from '../config/paths.js';

// `/` is the Studio page (NAV-ROUTES-3). The pre-paint script sends a first load there before
// anything loads; this covers a link to `/` inside the app.
export function clientLoader() {
  return redirect(paths.studio);
}

export default function Home() {
  return null;
}
