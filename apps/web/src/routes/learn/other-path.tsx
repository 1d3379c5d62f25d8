import { Navigate } from 'react-router';
import { paths } from '../../config/paths.js';

/** Any other path below /learn/ goes (replacing history) to the list of lessons. */
export default function LearnOtherPath() {
  return <Navigate to={paths.learn.root} replace />;
}
