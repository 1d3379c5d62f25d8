import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { SITE_NAME } from '../../lib/page-meta.js';
import { NAV_SECTIONS } from './navigation.js';

export function SiteFooter() {
  return (
    <Box component="footer" sx={{ borderTop: 1, borderColor: 'divider', py: 4, mt: 8, bgcolor: 'background.paper' }}>
      <Container maxWidth="lg" sx={{ display: 'flex', flexWrap: 'wrap', gap: 4, justifyContent: 'space-between' }}>
        <Typography variant="body2" color="text.secondary">
          © {SITE_NAME}. AI-assisted coding and reporting for data teams.
        </Typography>
        <Box component="nav" aria-label="Footer" sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
          {NAV_SECTIONS.flatMap((section) => section.items).map((item) => (
            <Link key={item.to} component={RouterLink} to={item.to} variant="body2" color="text.primary">
              {item.label}
            </Link>
          ))}
        </Box>
      </Container>
    </Box>
  );
}
