import AccountCircle from '@mui/icons-material/AccountCircle';
import IconButton from '@mui/material/IconButton';
import { paths } from '../../config/paths.js';
import { PopupMenu, PopupMenuLinks, popupMenuButtonProps, type PopupMenuEntry } from '../../components/popup-menu.js';

/**
 * The account menu (NAV-LAYOUT-3): My Profile; Studio and Log Out while signed in, Log In while not.
 * Both sets are in the markup and CSS shows one, so a prerendered page is right for either.
 */
export const ACCOUNT_MENU_ENTRIES: readonly PopupMenuEntry[] = [
  { label: 'My Profile', to: paths.settings.root },
  { label: 'Studio', to: '/studio/reports', signedIn: true },
  { label: 'Log Out', to: paths.logout, signedIn: true },
  { label: 'Log In', to: paths.login, signedIn: false },
];

export function UserMenu({ current }: { current: boolean }) {
  return (
    <>
      <IconButton
        aria-label="account menu"
        {...popupMenuButtonProps('account-menu')}
        aria-current={current ? 'page' : undefined}
        color="inherit"
      >
        <AccountCircle />
      </IconButton>
      <PopupMenu id="account-menu">
        <PopupMenuLinks entries={ACCOUNT_MENU_ENTRIES} />
      </PopupMenu>
    </>
  );
}
