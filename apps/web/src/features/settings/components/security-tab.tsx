import Box from '@mui/material/Box';
import { SessionsSection } from './sessions-section.js';
import { TwoFactorSection } from './two-factor-section.js';

/** Security: two-factor sign-in (TOTP-ENROL-1), then where the account is signed in (SESS-1). */
export function SecurityTab() {
  return (
    <Box sx={{ display: 'grid', gap: 4, maxWidth: 640 }}>
      <TwoFactorSection />
      <SessionsSection />
    </Box>
  );
}
