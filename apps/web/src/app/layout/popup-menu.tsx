import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { Link as RouterLink } from 'react-router';

export interface PopupMenuEntry {
  label: string;
  /** A link, or else an action. */
  to?: string;
  onSelect?: () => void;
}

/**
 * The opened menu of a top-bar button. It lives in its own chunk (menus, popovers and focus traps
 * are sizeable), loaded when a menu is first about to open.
 */
export function PopupMenu({
  id,
  anchor,
  entries,
  onClose,
}: {
  id: string;
  anchor: HTMLElement | null;
  entries: readonly PopupMenuEntry[];
  onClose: () => void;
}) {
  return (
    <Menu id={id} anchorEl={anchor} open onClose={onClose}>
      {entries.map((entry) =>
        entry.to ? (
          <MenuItem key={entry.label} component={RouterLink} to={entry.to} onClick={onClose}>
            {entry.label}
          </MenuItem>
        ) : (
          <MenuItem
            key={entry.label}
            onClick={() => {
              onClose();
              entry.onSelect?.();
            }}
          >
            {entry.label}
          </MenuItem>
        ),
      )}
    </Menu>
  );
}
