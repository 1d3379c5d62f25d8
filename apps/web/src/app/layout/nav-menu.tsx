import KeyboardArrowDown from '@mui/icons-material/KeyboardArrowDown';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import type { NavSection } from './navigation.js';

/** One top-bar menu (Platform, Solutions & Services, Company). */
export function NavMenu({ section, current }: { section: NavSection; current: boolean }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const close = () => setAnchor(null);
  return (
    <>
      <Button
        color="inherit"
        aria-haspopup="true"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        aria-current={current ? 'true' : undefined}
        endIcon={<KeyboardArrowDown />}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={current ? { textDecoration: 'underline', textUnderlineOffset: 6 } : undefined}
      >
        {section.label}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={close}>
        {section.items.map((item) => (
          <MenuItem key={item.to} component={RouterLink} to={item.to} onClick={close}>
            {item.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
