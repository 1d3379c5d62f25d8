import AccountCircle from '@mui/icons-material/AccountCircle';
import IconButton from '@mui/material/IconButton';
import { Suspense, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { logout } from '../../features/auth/api/logout.js';
import { isLoggedIn } from '../../lib/session.js';
import { LazyPopupMenu, loadPopupMenu } from './lazy-overlays.js';
import { paths } from '../../config/paths.js';
import type { PopupMenuEntry } from './popup-menu.js';

/**
 * The account menu's entries: My Profile, then for a signed-in user (`logOut` given) Studio and Log
 * Out, else Log In.
 */
export function accountMenuEntries(logOut?: () => void): PopupMenuEntry[] {
  return logOut
    ? [
        { label: 'My Profile', to: paths.settings.root },
        { label: 'Studio', to: '/studio/reports' },
        { label: 'Log Out', onSelect: logOut },
      ]
    : [
        { label: 'My Profile', to: paths.settings.root },
        { label: 'Log In', to: paths.login },
      ];
}

/** My Profile, Log In (signed out) and Log Out (signed in). */
export function UserMenu({ current }: { current: boolean }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [signedIn, setSignedIn] = useState(false);
  const navigate = useNavigate();
  const menuId = useId();

  const entries = accountMenuEntries(signedIn ? () => void logout().then(() => navigate(paths.login)) : undefined);

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
