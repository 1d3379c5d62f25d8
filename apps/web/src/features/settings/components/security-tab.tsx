import Box from '@mui/material/Box';
import { TwoFactorSection } from './two-factor-section.js';

/**
 * Security (TOTP-ENROL-1): two-factor sign-in first; the sessions list joins it below (another
 * change builds it at the same time).
 */
export function SecurityTab() {
  return (
    <Box sx={{ display: 'grid', gap: 4, maxWidth: 640 }}>
      <TwoFactorSection />
    </Box>
  );
}
