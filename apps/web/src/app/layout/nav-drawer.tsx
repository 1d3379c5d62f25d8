import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import { NAV_SECTIONS } from './navigation.js';

/** The menus of the top bar, moved into a drawer on narrow screens. */
export function NavDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const idPrefix = useId();
  return (
    <Drawer
      anchor="left"
      open={open}
      onClose={onClose}
      slotProps={{ paper: { sx: { width: 280 }, 'aria-label': 'Navigation menu' } }}
    >
      <nav aria-label="Site navigation">
        {NAV_SECTIONS.map((section, index) => (
          <Box key={section.label} sx={{ pt: 2 }}>
            <Typography
              id={`${idPrefix}-${index}`}
              component="h2"
              variant="overline"
              color="text.secondary"
              sx={{ px: 2, fontWeight: 700 }}
            >
              {section.label}
            </Typography>
            <List aria-labelledby={`${idPrefix}-${index}`} dense>
              {section.items.map((item) => (
                <ListItem key={item.to} disablePadding>
                  <ListItemButton component={RouterLink} to={item.to} onClick={onClose}>
                    <ListItemText primary={item.label} />
                  </ListItemButton>
                </ListItem>
              ))}
            </List>
          </Box>
        ))}
      </nav>
    </Drawer>
  );
}
