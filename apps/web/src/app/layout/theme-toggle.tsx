import DarkMode from '@mui/icons-material/DarkMode';
import LightMode from '@mui/icons-material/LightMode';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import { useColorScheme } from '@mui/material/styles';

/**
 * Switches between the light and dark theme. Which icon shows is decided by CSS (the class on
 * <html>), so the prerendered markup is the same in both schemes. On a page where the app runs, MUI's
 * colour-scheme state switches it; on a page that ships no script, app/platform-ui.js does
 * (`data-theme-toggle`), with the same storage key.
 */
export function ThemeToggle() {
  const { mode, systemMode, setMode } = useColorScheme();
  const resolved = mode === 'system' ? systemMode : mode;
  return (
    <IconButton
      color="inherit"
      aria-label="toggle light and dark theme"
      data-theme-toggle
      onClick={() => setMode(resolved === 'dark' ? 'light' : 'dark')}
    >
      <Box
        component="span"
        sx={[{ display: 'inline-flex' }, (theme) => theme.applyStyles('dark', { display: 'none' })]}
      >
        <DarkMode />
      </Box>
      <Box
        component="span"
        sx={[{ display: 'none' }, (theme) => theme.applyStyles('dark', { display: 'inline-flex' })]}
      >
        <LightMode />
      </Box>
    </IconButton>
  );
}
