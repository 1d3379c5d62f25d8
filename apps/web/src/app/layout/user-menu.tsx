import AccountCircle from '@mui/icons-material/AccountCircle';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { logout } from '../../features/auth/api/logout.js';
import { isLoggedIn } from '../../lib/session.js';

/** My Profile, Log In (signed out) and Log Out (signed in). */
export function UserMenu({ current }: { current: boolean }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [signedIn, setSignedIn] = useState(false);
  const navigate = useNavigate();
  const menuId = useId();
  const close = () => setAnchor(null);

  return (
    <>
      <IconButton
        aria-label="account menu"
        aria-haspopup="true"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        aria-current={current ? 'page' : undefined}
        color="inherit"
        onClick={(event) => {
          setSignedIn(isLoggedIn());
          setAnchor(event.currentTarget);
        }}
      >
        <AccountCircle />
      </IconButton>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={close}>
        <MenuItem component={RouterLink} to="/settings" onClick={close}>
          My Profile
        </MenuItem>
        {signedIn ? (
          <MenuItem
            onClick={() => {
              close();
              void logout().then(() => navigate('/login'));
            }}
          >
            Log Out
          </MenuItem>
        ) : (
          <MenuItem component={RouterLink} to="/login" onClick={close}>
            Log In
          </MenuItem>
        )}
      </Menu>
    </>
  );
}
