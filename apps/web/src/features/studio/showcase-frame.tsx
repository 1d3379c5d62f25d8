import Container from '@mui/material/Container';
import type { ReactNode } from 'react';
import { FOOTER_BELOW_FOLD } from '../../lib/footer-below-fold.js';
import { ReportLoading } from './components/report-loading.js';

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
 * pending state the viewer shows next, so nothing moves when it takes over.
 */
export function ShowcaseFrame() {
  return (
    <ShowcaseContainer>
      <ReportLoading />
    </ShowcaseContainer>
  );
}
