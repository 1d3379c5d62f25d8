import Container from '@mui/material/Container';
import type { ReactNode } from 'react';
import { FOOTER_BELOW_FOLD } from '../../lib/footer-below-fold.js';
import { useLocation } from 'react-router';
import { ReportPending } from './components/report-viewer.js';
import { QueryProvider } from '../../lib/query-client.js';
import { inlineScript } from '../../lib/inline-script.js';
import { STORAGE_KEYS } from '../../lib/session.js';
import earlyDrawingsScript from './early-drawings-script.js?raw';

/** Asks for the frame's chart drawings as the HTML arrives (early-drawings-script.js). */
const EARLY_DRAWINGS = {
  __html: inlineScript(earlyDrawingsScript).replaceAll('STORAGE_KEYS', JSON.stringify(STORAGE_KEYS)),
};
import { showcaseSlug } from './report-view.js';

/**
 * Where a showcase report sits on its page (/payer, /hospital-prices, /cms-fs), with the footer kept
 * below the fold: the report grows from its loading line and moves nothing in view.
 */
export function ShowcaseContainer({ children }: { children: ReactNode }) {
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }} {...{ [FOOTER_BELOW_FOLD]: '' }}>
      {children}
    </Container>
  );
}

/**
 * A showcase report's frame, rendered at build time and shown until its guard has run: the same
 * pending state the viewer shows next (the report's heading, parameters and first blocks, loading),
 * so nothing moves when it takes over. Its script, run as the HTML is parsed, asks for the first
 * chart's drawing before the app runs (decision 064).
 */
export function ShowcaseFrame() {
  return (
    <QueryProvider>
      <ShowcaseContainer>
        <ReportPending reportKey={showcaseSlug(useLocation().pathname)} />
      </ShowcaseContainer>
      <script dangerouslySetInnerHTML={EARLY_DRAWINGS} />
    </QueryProvider>
  );
}
