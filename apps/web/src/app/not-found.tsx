import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { paths } from '../config/paths.js';

/** Any unmatched route (NAV-ROUTES-4, NAV-404-1). */
export function NotFound() {
  return (
    <Container component="main" maxWidth="sm" sx={{ py: 12, textAlign: 'center' }}>
      <Typography component="p" sx={{ fontSize: '8rem', fontWeight: 800, lineHeight: 1 }} color="primary">
        404
      </Typography>
      <Typography variant="h1" sx={{ mt: 2 }}>
        Oops!
      </Typography>
      <Typography sx={{ mt: 2, mb: 4 }}>The page you are looking for was not found.</Typography>
      <Button component={RouterLink} to={paths.home} variant="contained">
        Go Back
      </Button>
    </Container>
  );
}
