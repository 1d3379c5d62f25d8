import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { QueryProvider } from '../../lib/query-client.js';

/** /admin: a lazy chunk behind RequireSuperuser. The admin issue fills in the tabs. */
export function AdminArea() {
  return (
    <QueryProvider>
      <Container maxWidth="lg" sx={{ py: 6 }}>
        <Typography variant="h1">Admin Dashboard</Typography>
      </Container>
    </QueryProvider>
  );
}
