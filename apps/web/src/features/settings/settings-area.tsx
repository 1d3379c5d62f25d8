import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { QueryProvider } from '../../lib/query-client.js';

/** /settings: a lazy chunk behind RequireAuth. The settings issue fills in the tabs. */
export function SettingsArea() {
  return (
    <QueryProvider>
      <Container maxWidth="lg" sx={{ py: 6 }}>
        <Typography variant="h1">Settings</Typography>
      </Container>
    </QueryProvider>
  );
}
