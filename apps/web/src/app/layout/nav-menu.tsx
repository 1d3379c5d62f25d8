import KeyboardArrowDown from '@mui/icons-material/KeyboardArrowDown';
import Button from '@mui/material/Button';
import type { NavSection } from './navigation.js';
import { PopupMenu, PopupMenuLinks, popupMenuButtonProps } from '../../components/popup-menu.js';

/** One top-bar menu (Platform, Solutions & Services, Company). */
export function NavMenu({ section, current }: { section: NavSection; current: boolean }) {
  const id = `${section.label.toLowerCase().replace(/[^a-z]+/g, '-')}-menu`;
  return (
    <>
      <Button
        color="inherit"
        {...popupMenuButtonProps(id)}
        aria-current={current ? 'true' : undefined}
        endIcon={<KeyboardArrowDown />}
        sx={current ? { textDecoration: 'underline', textUnderlineOffset: 6 } : undefined}
      >
        {section.label}
      </Button>
      <PopupMenu id={id}>
        <PopupMenuLinks entries={section.items} />
      </PopupMenu>
    </>
  );
}
