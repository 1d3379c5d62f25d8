import List from '@mui/material/List';
import ListItemButton, { type ListItemButtonProps } from '@mui/material/ListItemButton';
import Paper from '@mui/material/Paper';
import type { CSSObject } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';

export interface PopupMenuEntry {
  label: string;
  to: string;
  signedIn?: PopupMenuItemProps['signedIn'];
}

/** CSS for an entry that depends on the session: the attribute is kept by app/platform-ui.js. */
function sessionDisplay(signedIn: boolean | undefined): CSSObject {
  if (signedIn === undefined) return {};
  const hiddenWhen = signedIn ? 'html:not([data-signed-in]) &' : 'html[data-signed-in] &';
  return { [hiddenWhen]: { display: 'none' } };
}

/**
 * A top-bar menu: a `popover` opened by the button whose `popoverTarget` is `id` (decision 053).
 * The browser opens and light-dismisses it and gives focus back; app/platform-ui.js moves focus
 * between the items on every page, with or without the app. It is placed below its button by CSS
 * anchor positioning, and works before and without React, so the marketing pages ship no script for
 * it. `children` are `PopupMenuItem`s: links (`PopupMenuLinks`) or buttons that call
 * `closePopupMenu` when chosen.
 *
 * A list of list buttons rather than MUI's MenuList: MenuList's items register with it from layout
 * effects, so each menu in the top bar rendered once more, synchronously, as the page hydrated (one
 * long task on every page where the app runs), for keys that platform-ui.js handles already.
 */
export function PopupMenu({ id, children }: { id: string; children: ReactNode }) {
  return (
    <Paper
      id={id}
      popover="auto"
      elevation={8}
      // The anchor names this menu's button: in the element's own style, so the class below is the
      // same for every menu (a report's chart menus draw with the styles its prerendered page brought).
      style={{ positionAnchor: `--${id}` }}
      sx={{
        // The popover's own box: no UA border, margin or centring; below the button, flipped when
        // the right edge is near.
        position: 'fixed',
        inset: 'auto',
        m: 0,
        p: 0,
        border: 0,
        minWidth: 180,
        positionArea: 'block-end span-inline-end',
        positionTryFallbacks: 'flip-inline',
      }}
    >
      {/* No aria-labelledby: the menu is in the page while closed, and a label would make "Company"
          name it as well as the contact form's Company field (getByLabel would find both). */}
      <List component="div" role="menu">
        {children}
      </List>
    </Paper>
  );
}

/** A menu item's look: MUI's MenuItem's spacing and type. */
const MENU_ITEM_SX = { typography: 'body1', py: 0.75, minHeight: { xs: 48, sm: 'auto' } } as const;

type PopupMenuItemProps = Omit<ListItemButtonProps, 'sx' | 'tabIndex'> & {
  /** A link to this path (a followed link closes the menu: app/platform-ui.js); else a button. */
  to?: string;
  /** Shown only while someone is signed in (`true`) or only while nobody is (`false`). */
  signedIn?: boolean;
};

/**
 * One item of a `PopupMenu`: out of the Tab order (focus moves by arrow keys), `menuitem` unless a
 * `role` is given (`menuitemradio`).
 */
export function PopupMenuItem({ role = 'menuitem', to, signedIn, ...props }: PopupMenuItemProps) {
  const sx = { ...MENU_ITEM_SX, ...sessionDisplay(signedIn) };
  return to === undefined ? (
    <ListItemButton role={role} tabIndex={-1} sx={sx} {...props} />
  ) : (
    <ListItemButton component={RouterLink} to={to} role={role} tabIndex={-1} sx={sx} {...props} />
  );
}

/** A menu's entries as links. */
export function PopupMenuLinks({ entries }: { entries: readonly PopupMenuEntry[] }) {
  return entries.map((entry) => (
    <PopupMenuItem key={entry.label} to={entry.to} signedIn={entry.signedIn}>
      {entry.label}
    </PopupMenuItem>
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
