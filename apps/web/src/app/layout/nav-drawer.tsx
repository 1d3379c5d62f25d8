import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import { keyframes } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { NAV_SECTIONS } from './navigation.js';

export const NAV_DRAWER_ID = 'nav-drawer';

const slideIn = keyframes({ from: { transform: 'translateX(-100%)' }, to: { transform: 'none' } });

/**
 * The menus of the top bar, moved into a drawer on narrow screens: a modal <dialog> (decision 053),
 * opened by the button that names it in `data-opens-dialog` (app/platform-ui.js). The browser traps
 * focus in it, closes it on Escape and gives focus back.
 */
export function NavDrawer() {
  return (
    <Box
      component="dialog"
      id={NAV_DRAWER_ID}
      aria-label="Navigation menu"
      tabIndex={-1}
      sx={(theme) => ({
        position: 'fixed',
        inset: '0 auto 0 0',
        width: 280,
        height: '100%',
        maxHeight: '100%',
        m: 0,
        p: 0,
        border: 0,
        outline: 'none',
        overflowY: 'auto',
        bgcolor: 'background.paper',
        color: 'text.primary',
        boxShadow: theme.shadows[16],
        '&[open]': {
          animation: `${slideIn} ${theme.transitions.duration.enteringScreen}ms ${theme.transitions.easing.easeOut}`,
        },
        '&::backdrop': { backgroundColor: 'rgba(0, 0, 0, 0.5)' },
        '@media (prefers-reduced-motion: reduce)': { '&[open]': { animation: 'none' } },
      })}
    >
      <nav aria-label="Site navigation">
        {NAV_SECTIONS.map((section) => (
          <Box key={section.label} sx={{ pt: 2 }}>
            <Typography component="h2" variant="overline" color="text.secondary" sx={{ px: 2, fontWeight: 700 }}>
              {section.label}
            </Typography>
            {/* Under its heading, unlabelled: the drawer is in the page while closed (see popup-menu.tsx). */}
            <List dense>
              {section.items.map((item) => (
                <ListItem key={item.to} disablePadding>
                  <ListItemButton component={RouterLink} to={item.to}>
                    <ListItemText primary={item.label} />
                  </ListItemButton>
                </ListItem>
              ))}
            </List>
          </Box>
        ))}
      </nav>
    </Box>
  );
}
