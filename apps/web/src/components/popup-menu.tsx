import MenuItem from '@mui/material/MenuItem';
import MenuList from '@mui/material/MenuList';
import Paper from '@mui/material/Paper';
import type { SxProps, Theme } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';

export interface PopupMenuEntry {
  label: string;
  to: string;
  /** Shown only while someone is signed in (`true`) or only while nobody is (`false`). */
  signedIn?: boolean;
}

/** CSS for an entry that depends on the session: the attribute is kept by app/platform-ui.js. */
function sessionDisplay(signedIn: boolean | undefined): SxProps<Theme> | undefined {
  if (signedIn === undefined) return undefined;
  const hiddenWhen = signedIn ? 'html:not([data-signed-in]) &' : 'html[data-signed-in] &';
  return { [hiddenWhen]: { display: 'none' } };
}

/**
 * A top-bar menu: a `popover` opened by the button whose `popoverTarget` is `id` (decision 053).
 * The browser opens and light-dismisses it and gives focus back; MUI's MenuList moves focus between
 * the items where the app runs, app/platform-ui.js where it does not. It is placed below its button
 * by CSS anchor positioning, and works before and without React, so the marketing pages ship no
 * script for it. `children` are MUI MenuItems: links (`PopupMenuLinks`) or buttons that call
 * `closePopupMenu` when chosen.
 */
export function PopupMenu({ id, children }: { id: string; children: ReactNode }) {
  return (
    <Paper
      id={id}
      popover="auto"
      elevation={8}
      sx={{
        // The popover's own box: no UA border, margin or centring; below the button, flipped when
        // the right edge is near.
        position: 'fixed',
        inset: 'auto',
        m: 0,
        p: 0,
        border: 0,
        minWidth: 180,
        positionAnchor: `--${id}`,
        positionArea: 'block-end span-inline-end',
        positionTryFallbacks: 'flip-inline',
      }}
    >
      {/* No aria-labelledby: the menu is in the page while closed, and a label would make "Company"
          name it as well as the contact form's Company field (getByLabel would find both). */}
      <MenuList>{children}</MenuList>
    </Paper>
  );
}

/** A menu's entries as links (a followed link closes the menu: app/platform-ui.js). */
export function PopupMenuLinks({ entries }: { entries: readonly PopupMenuEntry[] }) {
  return entries.map((entry) => (
    <MenuItem key={entry.label} component={RouterLink} to={entry.to} sx={sessionDisplay(entry.signedIn)}>
      {entry.label}
    </MenuItem>
  ));
}

/** Closes menu `id` after a choice that is not a link; the browser gives focus back to its button. */
export function closePopupMenu(id: string) {
  document.getElementById(id)?.hidePopover();
}

/** What the button that opens menu `id` needs: its target, and the anchor the menu is placed by. */
export function popupMenuButtonProps(id: string) {
  return {
    popoverTarget: id,
    'aria-haspopup': 'menu' as const,
    style: { anchorName: `--${id}` },
  };
}
