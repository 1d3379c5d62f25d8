import Drawer from '@mui/material/Drawer';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import { Link as RouterLink } from 'react-router';
import { NAV_SECTIONS } from './navigation.js';

/** The menus of the top bar, moved into a drawer on narrow screens. */
export function NavDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Drawer anchor="left" open={open} onClose={onClose} slotProps={{ paper: { sx: { width: 280 } } }}>
      <nav aria-label="Site navigation">
        {NAV_SECTIONS.map((section) => (
          <List
            key={section.label}
            subheader={
              <ListSubheader component="div" disableSticky>
                {section.label}
              </ListSubheader>
            }
          >
            {section.items.map((item) => (
              <ListItemButton key={item.to} component={RouterLink} to={item.to} onClick={onClose}>
                <ListItemText primary={item.label} />
              </ListItemButton>
            ))}
          </List>
        ))}
      </nav>
    </Drawer>
  );
}
