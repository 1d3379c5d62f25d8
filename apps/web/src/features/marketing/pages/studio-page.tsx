import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Paper from '@mui/material/Paper';
import { CallToAction, FeatureGrid, Hero, Section } from '../components/page-sections.js';
import { StudioIllustration } from '../illustrations/illustrations.js';

const FOUNDATION = [
  {
    title: 'ORM and migrations',
    text: 'A typed data layer over PostgreSQL with generated, reviewed migrations, so the schema in production is the schema in the repository.',
  },
  {
    title: 'REST APIs',
    text: 'Validated endpoints with an OpenAPI document, consistent error bodies and paging, ready for the web app and for your integrations.',
  },
  {
    title: 'Authentication and authorization',
    text: 'Sign-up, login, password recovery, revocable sessions, roles and permissions, and multi-tenant isolation from the first commit.',
  },
  {
    title: 'An AI agent',
    text: 'An assistant that reads your schema and your conventions, proposes changes as reviewable diffs and explains every step it takes.',
  },
  {
    title: 'A reporting engine',
    text: 'Reports defined as data, rendered in the browser, paged on the server and shared with exactly the people and tenants allowed to see them.',
  },
  {
    title: 'Card payment integration',
    text: 'Plans, subscriptions, saved cards and billing history wired to a card payment provider, with a sandbox that works offline.',
  },
] as const;

const PRINCIPLES = [
  {
    title: 'Precision-guided AI prompts',
    text: 'Prompts are grounded in your real tables, types and rules. The agent answers with code that compiles against your project, not with guesses.',
  },
  {
    title: 'Declarative web-based reporting',
    text: 'Describe the question, the filters and the layout; Studio handles queries, paging, caching and access. Reports live on the web, not on a desktop.',
  },
  {
    title: 'A learning platform',
    text: 'Guided lessons walk your team through the foundation, from the first migration to a production dashboard, using your own data.',
  },
] as const;

/** Ways into the signed-in Studio (STUDIO-VIEW-1); a visitor who is not signed in is asked to log in first. */
const SHOWCASE = [
  ['All reports', '/studio/reports'],
  ['Payer rates', '/payer'],
  ['Hospital prices', '/hospital-prices'],
  ['Fee schedule', '/cms-fs'],
] as const;

/** The nine features of MKT-CLAIM-3, Studio against a typical desktop BI tool. */
const COMPARISON = [
  ['Data sources', 'Live queries on sources up to 10GB', 'Extract files capped at 64MB for web publishing'],
  ['Data source configuration', 'Declared in code, versioned and reviewed', 'Configured by hand in each workbook'],
  [
    'Visualization',
    'Declarative charts and tables rendered in the browser',
    'Drag-and-drop canvas in a desktop client',
  ],
  ['Multitenancy', 'Built in: every query is scoped to a tenant', 'Separate sites or projects per customer'],
  ['Pagination', 'Server-side paging for any result size', 'Whole result sets loaded into the view'],
  ['Web native', 'Yes: runs in any modern browser', 'Authoring needs a desktop installation'],
  ['Single sign-on', 'Included in every plan', 'Often an enterprise add-on'],
  ['Maintenance', 'One service, automated migrations and tests', 'Server upgrades and extract refresh schedules'],
  ['Cost', 'Flat subscription per team', 'Per-seat licences for creators and viewers'],
] as const;

const TECH_STACK = [
  'TypeScript',
  'React',
  'Material UI',
  'Fastify',
  'PostgreSQL',
  'Drizzle ORM',
  'zod',
  'OpenAPI',
  'Stripe',
  'Playwright',
  'Vitest',
] as const;

export function StudioPage() {
  return (
    <>
      <Hero
        eyebrow="Studio"
        title="AI-assisted full-stack coding and business-intelligence reporting"
        lead="Studio gives your team a production-ready application foundation and a reporting engine in one place, with an AI agent that knows your code. It is the web-native alternative to desktop BI tools."
        illustration={
          <StudioIllustration title="A Studio report with bar and line charts beside an AI prompt that adds a KPI" />
        }
        actions={[
          { label: 'Start free', to: '/signup', primary: true },
          { label: 'Talk to us', to: '/contact' },
        ]}
      />
      <Section
        title="A production-ready app foundation"
        intro="Every Studio project starts with the parts that usually take months to get right. They are real code in your repository: read it, change it, own it."
      >
        <FeatureGrid items={FOUNDATION} />
      </Section>
      <Section title="How Studio works">
        <FeatureGrid items={PRINCIPLES} />
      </Section>
      <Section
        title="Studio compared with a desktop BI tool"
        intro="Nine things that decide how a reporting platform feels after the first month."
      >
        <TableContainer component={Paper} variant="outlined">
          <Table aria-label="Feature comparison between Studio and a typical desktop BI tool">
            <TableHead>
              <TableRow>
                <TableCell component="th" scope="col">
                  Feature
                </TableCell>
                <TableCell component="th" scope="col">
                  Studio
                </TableCell>
                <TableCell component="th" scope="col">
                  Typical desktop BI tool
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {COMPARISON.map(([feature, studio, other]) => (
                <TableRow key={feature}>
                  <TableCell component="th" scope="row" sx={{ fontWeight: 600 }}>
                    {feature}
                  </TableCell>
                  <TableCell>{studio}</TableCell>
                  <TableCell>{other}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </Section>
      <Section
        title="The tech stack"
        intro="Mainstream, well-documented tools that your developers already know and that hire well."
      >
        <Box
          component="ul"
          aria-label="Technologies"
          sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, p: 0, m: 0, listStyle: 'none' }}
        >
          {TECH_STACK.map((name) => (
            <li key={name}>
              <Chip label={name} variant="outlined" />
            </li>
          ))}
        </Box>
      </Section>
      <Section
        title="Open Studio"
        intro="Signed in, you can read the showcase reports on the demo price-transparency data, and your tenant's own reports."
      >
        <Box
          component="ul"
          aria-label="Studio reports"
          sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, p: 0, m: 0, listStyle: 'none' }}
        >
          {SHOWCASE.map(([label, to]) => (
            <li key={to}>
              <Button component={RouterLink} to={to} variant={to === '/studio/reports' ? 'contained' : 'outlined'}>
                {label}
              </Button>
            </li>
          ))}
        </Box>
      </Section>
      <CallToAction
        title="See Studio on your own data"
        text="Tell us about your sources and reports; we will set up a workspace and walk your team through it."
      />
    </>
  );
}
