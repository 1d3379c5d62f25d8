import ContentCopy from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ReportLink, ReportLinkCreated, ReportPublic } from '@dataplatform/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { LoadingLine } from '../../../components/loading-line.js';
import { errorText } from '../../../lib/api-error.js';
import { NativeChoice } from '../agent/native-choice.js';
import { createLink, linksQueryOptions, revokeLink, sharingKeys } from '../api/sharing.js';
import { defaultText, type ParamValues } from '../report-view.js';
import { copyText } from './copy-text.js';
import { ListRow } from '../components/list-row.js';

/** How long a new link works: a choice of days, or until revoked. */
const LIFETIMES = [
  { value: '', label: 'Never (until revoked)' },
  { value: '1', label: 'In a day' },
  { value: '7', label: 'In a week' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In a year' },
] as const;

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function linkState(link: ReportLink): { label: string; color: 'success' | 'default' } {
  if (link.active) return { label: 'Active', color: 'success' };
  return { label: link.revoked_at ? 'Revoked' : 'Expired', color: 'default' };
}

/** One link of the list: when it was made, when it stops, what it fixes, and Revoke. */
function LinkRow({ link, onRevoke }: { link: ReportLink; onRevoke: (link: ReportLink) => void }) {
  const state = linkState(link);
  const fixed = Object.entries(link.params);
  return (
    <ListRow>
      <Box sx={{ mr: 'auto', minWidth: 0 }}>
        <Typography variant="body2">
          Made {when(link.created_at)} ·{' '}
          {link.revoked_at
            ? `revoked ${when(link.revoked_at)}`
            : link.expires_at
              ? `${link.active ? 'expires' : 'expired'} ${when(link.expires_at)}`
              : 'never expires'}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {fixed.length > 0
            ? `Fixed: ${fixed.map(([name, value]) => `${name} = ${String(value)}`).join(', ')}`
            : 'No parameter fixed'}
        </Typography>
      </Box>
      <Chip size="small" label={state.label} color={state.color} variant="outlined" />
      {link.active ? (
        <Button size="small" color="error" onClick={() => onRevoke(link)}>
          Revoke
        </Button>
      ) : undefined}
    </ListRow>
  );
}

/**
 * A report's share links: make one (optionally expiring, optionally fixing parameters to the values
 * shown now), copy its address the one time it is told, and revoke one.
 */
export function ShareLinks({ report, values }: { report: ReportPublic; values: ParamValues }) {
  const listId = useId();
  const queryClient = useQueryClient();
  const links = useQuery(linksQueryOptions(report.id));
  const [lifetime, setLifetime] = useState('');
  const [fixed, setFixed] = useState<ReadonlySet<string>>(new Set());
  const [made, setMade] = useState<ReportLinkCreated | undefined>(undefined);
  const [revoking, setRevoking] = useState<ReportLink | undefined>(undefined);
  // Said in the dialog, not in a toast: the page behind a modal is hidden from screen readers.
  const [revoked, setRevoked] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: sharingKeys.links(report.id) });

  const create = useMutation({
    mutationFn: () =>
      createLink(report.id, {
        ...(lifetime === '' ? {} : { expires_at: new Date(Date.now() + Number(lifetime) * 86_400_000).toISOString() }),
        params: Object.fromEntries(
          report.params
            .filter((param) => fixed.has(param.name))
            .map((param) => [param.name, values[param.name] ?? defaultText(param)]),
        ),
      }),
    onSuccess: (link) => {
      setMade(link);
      void refresh();
    },
    meta: { errorToast: false },
  });
  const revoke = useMutation({
    mutationFn: (link: ReportLink) => revokeLink(link.id),
    onSuccess: () => {
      setRevoking(undefined);
      setRevoked(true);
      void refresh();
    },
    meta: { errorToast: false },
  });

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Typography variant="body2" color="text.secondary">
        Anyone who holds a link sees this report alone, without an account: no other report, no source and no SQL.
      </Typography>
      <Box
        component="form"
        aria-label="New link"
        onSubmit={(event) => {
          event.preventDefault();
          setMade(undefined);
          setRevoked(false);
          create.mutate();
        }}
        sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, alignItems: 'flex-start' }}
      >
        <NativeChoice
          label="Stops working"
          value={lifetime}
          onChange={setLifetime}
          options={LIFETIMES}
          minWidth={220}
        />
        {report.params.length > 0 ? (
          <Box sx={{ display: 'flex', flexDirection: 'column' }}>
            <Typography variant="body2" color="text.secondary">
              Fix parameters to the values shown now (whoever opens the link cannot change them)
            </Typography>
            {report.params.map((param) => {
              const value = values[param.name] ?? defaultText(param);
              return (
                <FormControlLabel
                  key={param.name}
                  control={
                    <Checkbox
                      checked={fixed.has(param.name)}
                      onChange={(event) => {
                        const next = new Set(fixed);
                        if (event.target.checked) next.add(param.name);
                        else next.delete(param.name);
                        setFixed(next);
                      }}
                    />
                  }
                  label={`${param.label}: ${value === '' ? '(empty)' : value}`}
                />
              );
            })}
          </Box>
        ) : undefined}
        <Button type="submit" variant="contained" loading={create.isPending}>
          Make a link
        </Button>
      </Box>
      {create.isError ? <Alert severity="error">No link was made: {errorText(create.error)}</Alert> : undefined}
      {made ? (
        <Alert role="none" severity="success" sx={{ '& .MuiAlert-message': { width: '100%', minWidth: 0 } }}>
          <Typography role="status" variant="body2" sx={{ mb: 1 }}>
            Link made. Copy it now: its address is shown this once.
          </Typography>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <TextField
              size="small"
              label="Link address"
              value={made.url}
              slotProps={{ htmlInput: { readOnly: true } }}
              onFocus={(event) => event.target.select()}
              sx={{ flex: '1 1 16rem', minWidth: 0 }}
            />
            <Button startIcon={<ContentCopy />} onClick={() => copyText(made.url, 'The link')}>
              Copy link
            </Button>
          </Box>
        </Alert>
      ) : undefined}
      <Typography id={listId} component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
        Links to this report
      </Typography>
      <Typography role="status" variant="body2" color="success.main" sx={{ '&:empty': { display: 'none' } }}>
        {revoked ? 'Link revoked: whoever holds it is told it no longer works.' : ''}
      </Typography>
      {links.isPending ? <LoadingLine>Loading the links...</LoadingLine> : undefined}
      {links.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void links.refetch()}>
              Try again
            </Button>
          }
        >
          The links could not be loaded: {errorText(links.error)}
        </Alert>
      ) : undefined}
      {links.data && links.data.data.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No links yet: only members of the tenant see this report.
        </Typography>
      ) : undefined}
      {links.data && links.data.data.length > 0 ? (
        <Box component="ul" aria-labelledby={listId} sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {links.data.data.map((link) => (
            <LinkRow key={link.id} link={link} onRevoke={setRevoking} />
          ))}
        </Box>
      ) : undefined}
      <ConfirmDialog
        open={revoking !== undefined}
        title="Revoke this link?"
        confirmLabel="Revoke"
        loading={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking)}
        onClose={() => {
          setRevoking(undefined);
          revoke.reset();
        }}
      >
        Whoever opens it from now on is told it no longer works. A revoked link cannot be used again.
        {revoke.isError ? (
          <Alert severity="error" component="span" sx={{ mt: 2 }}>
            The link was not revoked: {errorText(revoke.error)}
          </Alert>
        ) : undefined}
      </ConfirmDialog>
    </Box>
  );
}
