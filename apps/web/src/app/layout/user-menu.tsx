import AccountCircle from '@mui/icons-material/AccountCircle';
import IconButton from '@mui/material/IconButton';
import { Suspense, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { logout } from '../../features/auth/api/logout.js';
import { isLoggedIn } from '../../lib/session.js';
import { LazyPopupMenu, loadPopupMenu } from './lazy-overlays.js';
import { paths } from '../../config/paths.js';

/** My Profile, Log In (signed out) and Log Out (signed in). */
export function UserMenu({ current }: { current: boolean }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [signedIn, setSignedIn] = useState(false);
  const navigate = useNavigate();
  const menuId = useId();

  const entries = [
    { label: 'My Profile', to: paths.settings.root },
    signedIn
      ? { label: 'Log Out', onSelect: () => void logout().then(() => navigate(paths.login)) }
      : { label: 'Log In', to: paths.login },
  ];

  return (
    <>
      <IconButton
        aria-label="account menu"
        aria-haspopup="true"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        aria-current={current ? 'page' : undefined}
        color="inherit"
        onPointerEnter={() => void loadPopupMenu()}
        onFocus={() => void loadPopupMenu()}
        onClick={(event) => {
          setSignedIn(isLoggedIn());
          setAnchor(event.currentTarget);
        }}
      >
        <AccountCircle />
      </IconButton>
      {anchor ? (
        <Suspense fallback={null}>
          <LazyPopupMenu id={menuId} anchor={anchor} entries={entries} onClose={() => setAnchor(null)} />
        </Suspense>
      ) : null}
    </>
  );
}
