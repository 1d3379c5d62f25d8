import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';

export interface HeroProps {
  eyebrow: string;
  title: string;
  lead: string;
  illustration: ReactNode;
  actions?: readonly { label: string; to: string; primary?: boolean }[];
}

/** The opening band of a marketing page: the page's only h1, a lead paragraph and an illustration. */
export function Hero({ eyebrow, title, lead, illustration, actions = [] }: HeroProps) {
  return (
    <Box
      component="section"
      sx={{ py: { xs: 6, md: 10 }, bgcolor: 'background.paper', borderBottom: 1, borderColor: 'divider' }}
    >
      <Container
        maxWidth="lg"
        sx={{ display: 'grid', gap: 6, alignItems: 'center', gridTemplateColumns: { xs: '1fr', md: '1.1fr 0.9fr' } }}
      >
        <div>
          <Typography component="p" variant="overline" color="primary" sx={{ fontWeight: 700, letterSpacing: 1.5 }}>
            {eyebrow}
          </Typography>
          <Typography variant="h1" sx={{ mb: 2 }}>
            {title}
          </Typography>
          <Typography variant="h6" component="p" color="text.secondary" sx={{ fontWeight: 400, mb: 4 }}>
            {lead}
          </Typography>
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
            {actions.map((action) => (
              <Button
                key={action.to}
                component={RouterLink}
                to={action.to}
                variant={action.primary ? 'contained' : 'outlined'}
                size="large"
              >
                {action.label}
              </Button>
            ))}
          </Box>
        </div>
        <Box sx={{ maxWidth: 520, width: '100%', justifySelf: 'center' }}>{illustration}</Box>
      </Container>
    </Box>
  );
}

export function Section({ title, intro, children }: { title: string; intro?: string; children?: ReactNode }) {
  return (
    <Container component="section" maxWidth="lg" sx={{ pt: { xs: 6, md: 8 } }}>
      <Typography variant="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {intro ? (
        <Typography color="text.secondary" sx={{ mb: 4, maxWidth: 780, fontSize: '1.1rem' }}>
          {intro}
        </Typography>
      ) : null}
      {children}
    </Container>
  );
}

export interface FeatureCard {
  title: string;
  text: string;
  icon?: ReactNode;
}

export function FeatureGrid({ items, columns = 3 }: { items: readonly FeatureCard[]; columns?: 2 | 3 }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 3,
        gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: `repeat(${columns}, 1fr)` },
      }}
    >
      {items.map((item) => (
        <Card key={item.title} variant="outlined" sx={{ height: '100%' }}>
          <CardContent>
            {item.icon ? <Box sx={{ mb: 1.5 }}>{item.icon}</Box> : null}
            <Typography variant="h3" sx={{ mb: 1 }}>
              {item.title}
            </Typography>
            <Typography color="text.secondary">{item.text}</Typography>
          </CardContent>
        </Card>
      ))}
    </Box>
  );
}

export function Prose({ children }: { children: ReactNode }) {
  return <Box sx={{ maxWidth: 780, '& p': { mb: 2, fontSize: '1.05rem', lineHeight: 1.7 } }}>{children}</Box>;
}

export function CallToAction({ title, text }: { title: string; text: string }) {
  return (
    <Container component="section" maxWidth="lg" sx={{ pt: { xs: 6, md: 8 } }}>
      <Box
        sx={{
          p: { xs: 4, md: 6 },
          borderRadius: 3,
          border: 1,
          borderColor: 'divider',
          bgcolor: 'background.paper',
          textAlign: 'center',
        }}
      >
        <Typography variant="h2" sx={{ mb: 2 }}>
          {title}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {text}
        </Typography>
        <Button component={RouterLink} to="/contact" variant="contained" size="large">
          Contact us
        </Button>
      </Box>
    </Container>
  );
}
