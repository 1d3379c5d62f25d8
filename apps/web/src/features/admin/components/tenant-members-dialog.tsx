import type { TenantPublic, UserPublic } from '@dataplatform/contract';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { TransferList } from '../../../components/transfer-list.js';
import { errorText } from '../../../lib/api-error.js';
import { useSettledValue } from '../../../lib/use-settled-value.js';
import { tenantMembersQueryOptions, useSetTenantMembers } from '../api/tenant-members.js';
import { usersByIdsQueries, usersQueryOptions } from '../api/users.js';
import { LoadingLine } from '../../../components/loading-line.js';
import { LoadFailure } from '../../../components/query-state.js';
import { FormError } from '../../../components/form-error.js';

/** How many search matches "Available Items" offers at once. */
const SEARCH_LIMIT = 20;
const SEARCH_DELAY_MS = 250;

/** The members of a tenant, edited with the transfer list; available users come from a server search. */
export function TenantMembersDialog({ tenant, onClose }: { tenant: TenantPublic | undefined; onClose: () => void }) {
  const titleId = useId();
  return (
    <Dialog open={tenant !== undefined} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>Members of {tenant?.name}</DialogTitle>
      {tenant ? <MembersBody tenant={tenant} onClose={onClose} /> : undefined}
    </Dialog>
  );
}

function MembersBody({ tenant, onClose }: { tenant: TenantPublic; onClose: () => void }) {
  const members = useQuery(tenantMembersQueryOptions(tenant.id));
  const [edited, setEdited] = useState<string[]>();
  const [input, setInput] = useState('');
  const [failure, setFailure] = useState<string>();
  const save = useSetTenantMembers();
  const q = useSettledValue(input.trim(), SEARCH_DELAY_MS);
  const found = useQuery(usersQueryOptions({ skip: 0, limit: SEARCH_LIMIT, q }));
  const selectedIds = edited ?? members.data ?? [];
  // Labels: the members' e-mails read in batches, and each user added since, as the search showed it.
  const memberUsers = useQueries({ queries: usersByIdsQueries(members.data ?? []) });
  const [addedLabels, setAddedLabels] = useState<ReadonlyMap<string, string>>(new Map());

  const labels = new Map(addedLabels);
  for (const batch of memberUsers) for (const user of batch.data?.data ?? []) labels.set(user.id, user.email);
  const listed: UserPublic[] = found.data?.data ?? [];
  for (const user of listed) labels.set(user.id, user.email);
  // A member the batches did not return (deleted meanwhile, or a failed read) shows its id.
  const labelsPending = memberUsers.some((batch) => batch.isPending);
  const items = [
    ...selectedIds.map((id) => ({ id, label: labels.get(id) ?? (labelsPending ? 'Loading...' : id) })),
    ...listed.filter((user) => !selectedIds.includes(user.id)).map((user) => ({ id: user.id, label: user.email })),
  ];

  const change = (ids: string[]) => {
    const next = new Map(addedLabels);
    for (const id of ids) {
      const label = labels.get(id);
      if (label !== undefined) next.set(id, label);
    }
    setAddedLabels(next);
    setEdited(ids);
  };

  const submit = async () => {
    setFailure(undefined);
    try {
      await save.mutateAsync({ ownerId: tenant.id, ids: selectedIds });
      onClose();
    } catch (error) {
      setFailure(errorText(error));
    }
  };

  return (
    <>
      <DialogContent>
        <Box sx={{ display: 'grid', gap: 2, pt: 1 }}>
          <FormError message={failure} />
          <TextField
            label="Find users"
            placeholder="E-mail or name"
            type="search"
            size="small"
            value={input}
            onChange={(event) => setInput(event.target.value)}
          />
          {members.isPending ? (
            <LoadingLine>Loading members...</LoadingLine>
          ) : members.isError ? (
            <LoadFailure onRetry={() => void members.refetch()} retrying={members.isFetching}>
              The members could not be loaded.
            </LoadFailure>
          ) : (
            <TransferList items={items} selectedIds={selectedIds} onChange={change} disabled={save.isPending} />
          )}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button
          variant="contained"
          loading={save.isPending}
          disabled={members.data === undefined}
          onClick={() => void submit()}
        >
          Save
        </Button>
      </DialogActions>
    </>
  );
}
