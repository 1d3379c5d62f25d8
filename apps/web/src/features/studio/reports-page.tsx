import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { LoadingLine } from '../../components/loading-line.js';
import { FOOTER_BELOW_FOLD } from '../../lib/footer-below-fold.js';
import { myTenantsQueryOptions } from '../../lib/my-tenants.js';
import { getSelectedTenantId, onSelectedTenantChange } from '../../lib/session.js';
import { ReportList } from './components/report-list.js';
import { EmbedSettingsButton, NewReportButton, SourcesButton } from './components/write-actions.js';

/**
 * Whose reports the list shows, and with no tenant chosen, how to get one; then the list. The two
 * appear together, once the caller's tenants are known: a note arriving above a list already on
 * screen would push it down (a layout shift).
 */
function TenantReports() {
  const tenantId = useSyncExternalStore(onSelectedTenantChange, getSelectedTenantId, () => '');
  const tenants = useQuery(myTenantsQueryOptions());
  if (tenants.isPending) {
    return <LoadingLine sx={{ py: 6, color: 'text.secondary' }}>Loading reports...</LoadingLine>;
  }
  return (
    <>
      <TenantNote tenants={tenants.data?.data ?? []} tenantId={tenantId} />
      <ReportList />
    </>
  );
}

function TenantNote({
  tenants: list,
  tenantId,
}: {
  tenants: readonly { id: string; name: string }[];
  tenantId: string;
}) {
  const tenant = list.find((candidate) => candidate.id === tenantId);
  if (tenant) {
    return (
      <Typography color="text.secondary">
        The built-in reports, then those of <strong>{tenant.name}</strong>.
      </Typography>
    );
  }
  return (
    <Alert severity="info">
      {list.length > 0
        ? 'You see the built-in reports on the demo data. Choose one of your tenants with the tenant switcher in the top bar to see its reports and sources.'
        : 'You see the built-in reports on the demo data. Reports and data of your own live in a tenant: ask an administrator to add you to one.'}
    </Alert>
  );
}

/** Studio's report list: the built-ins and the selected tenant's reports. */
export function ReportsPage() {
  return (
    // The footer waits below the fold: the list and the note under it (no reports of one's own yet:
    // the first lesson) arrive after the frame without moving anything in view.
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }} {...{ [FOOTER_BELOW_FOLD]: '' }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: 2 }}>
        <Box sx={{ mr: 'auto' }}>
          <Typography component="h1" variant="h3" sx={{ fontWeight: 700 }}>
            Studio
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 1, maxWidth: '70ch' }}>
            Reports defined as data, run on the server and paged as you read them.
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          <SourcesButton />
          <EmbedSettingsButton />
          <NewReportButton />
        </Box>
      </Box>
      <TenantReports />
    </Box>
  );
}
