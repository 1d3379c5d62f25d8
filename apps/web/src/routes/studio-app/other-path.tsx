import { Navigate } from 'react-router';
import { paths } from '../../config/paths.js';

/** Any other path below /studio/ goes (replacing history) to the report list. */
export default function StudioOtherPath() {
  return <Navigate to={`${paths.studioApp.root}/reports`} replace />;
}
