import ContentCopy from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { EmbedSecret, EmbedSettings } from '@dataplatform/contract';
import { EMBED_ORIGINS_MAX } from '@dataplatform/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, useSyncExternalStore } from 'react';
import { Link as RouterLink } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { LoadingLine } from '../../../components/loading-line.js';
import { ApiError, errorText } from '../../../lib/api-error.js';
import { getSelectedTenantId, onSelectedTenantChange } from '../../../lib/session.js';
import { showToast } from '../../../lib/toast-store.js';
import { embedSettingsQueryOptions, rotateEmbedSecret, saveEmbedOrigins, sharingKeys } from '../api/sharing.js';
import { copyText } from './copy-text.js';

/** What a person types, as the server keeps it: lower case, no trailing slash. */
const normalized = (origin: string) => origin.trim().toLowerCase().replace(/\/+$/, '');

/** The sites allowed to frame the tenant's reports: add, remove, save. */
function AllowedSites({ settings }: { settings: EmbedSettings }) {
  const ids = { heading: useId(), list: useId() };
  const queryClient = useQueryClient();
  const [origins, setOrigins] = useState<readonly string[] | undefined>(undefined);
  const [typed, setTyped] = useState('');
  const shown = origins ?? settings.origins;
  const save = useMutation({
    mutationFn: (next: readonly string[]) => saveEmbedOrigins([...next]),
    onSuccess: (saved) => {
      queryClient.setQueryData(sharingKeys.embedSettings, saved);
      setOrigins(undefined);
      showToast('Saved: only these sites may frame the tenant’s reports.', 'success');
    },
    meta: { errorToast: false },
  });
  const add = () => {
    const origin = normalized(typed);
    if (origin === '' || shown.includes(origin)) return setTyped('');
    setOrigins([...shown, origin]);
    setTyped('');
  };
  const full = shown.length >= EMBED_ORIGINS_MAX;
  return (
    <Paper variant="outlined" component="section" aria-labelledby={ids.heading} sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id={ids.heading} component="h2" variant="h6">
        Allowed sites
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Only pages of these sites may show the tenant’s reports in a frame. A site is https://host or https://host:port
        (http only for localhost), without a path.
      </Typography>
      {shown.length === 0 ? (
        <Typography variant="body2" sx={{ mb: 2 }}>
          No site yet: no other site can frame the tenant’s reports.
        </Typography>
      ) : (
        <Box component="ul" aria-label="Allowed sites" sx={{ listStyle: 'none', m: 0, mb: 2, p: 0 }}>
          {shown.map((origin) => (
            <Box
              component="li"
              key={origin}
              sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.5, borderBottom: 1, borderColor: 'divider' }}
            >
              <Typography sx={{ mr: 'auto', overflowWrap: 'anywhere', fontFamily: 'monospace' }}>{origin}</Typography>
              <Button
                size="small"
                color="error"
                aria-label={`Remove ${origin}`}
                onClick={() => setOrigins(shown.filter((candidate) => candidate !== origin))}
              >
                Remove
              </Button>
            </Box>
          ))}
        </Box>
      )}
      <Box
        component="form"
        aria-label="Add a site"
        onSubmit={(event) => {
          event.preventDefault();
          add();
        }}
        sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'flex-start', mb: 2 }}
      >
        <TextField
          size="small"
          label="Site"
          placeholder="https://app.example.com"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          disabled={full}
          helperText={full ? `At most ${EMBED_ORIGINS_MAX} sites: remove one first.` : undefined}
          sx={{ flex: '1 1 16rem' }}
        />
        <Button type="submit" variant="outlined" disabled={full || typed.trim() === ''}>
          Add
        </Button>
      </Box>
      {save.isError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          Not saved: {errorText(save.error)}
        </Alert>
      ) : undefined}
      <Button
        variant="contained"
        loading={save.isPending}
        disabled={origins === undefined}
        onClick={() => save.mutate(shown)}
      >
        Save sites
      </Button>
    </Paper>
  );
}

/** The embed secret: whether there is one, and a new one, told once (the old one stops working). */
function EmbedSecretSection({ settings }: { settings: EmbedSettings }) {
  const headingId = useId();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [made, setMade] = useState<EmbedSecret | undefined>(undefined);
  const rotate = useMutation({
    mutationFn: rotateEmbedSecret,
    onSuccess: (secret) => {
      setConfirming(false);
      setMade(secret);
      void queryClient.invalidateQueries({ queryKey: sharingKeys.embedSettings });
    },
    onError: (error) => {
      setConfirming(false);
      showToast(`No secret was made: ${errorText(error)}`, 'error');
    },
    meta: { errorToast: false },
  });
  const make = () => (settings.secret_set ? setConfirming(true) : rotate.mutate());
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id={headingId} component="h2" variant="h6">
        Embed secret
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Your server signs each viewer’s token with this secret (a JWT, HS256), naming the report, the parameters locked
        to that viewer’s values and an expiry within 24 hours. Keep it on your server: never in a page.
      </Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {settings.secret_set && settings.secret_created_at
          ? `A secret was made on ${new Date(settings.secret_created_at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}.`
          : 'No secret yet: no report of the tenant can be embedded.'}
      </Typography>
      {made ? (
        <Alert role="none" severity="warning" sx={{ mb: 2, '& .MuiAlert-message': { width: '100%', minWidth: 0 } }}>
          <Typography role="status" variant="body2" sx={{ mb: 1 }}>
            Copy the secret now and keep it on your server: it is shown this once.
          </Typography>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <TextField
              size="small"
              label="Embed secret"
              value={made.secret}
              slotProps={{ htmlInput: { readOnly: true } }}
              onFocus={(event) => event.target.select()}
              sx={{ flex: '1 1 16rem', minWidth: 0 }}
            />
            <Button startIcon={<ContentCopy />} onClick={() => copyText(made.secret, 'The secret')}>
              Copy secret
            </Button>
          </Box>
        </Alert>
      ) : undefined}
      <Button variant={settings.secret_set ? 'outlined' : 'contained'} loading={rotate.isPending} onClick={make}>
        {settings.secret_set ? 'Make a new secret' : 'Make a secret'}
      </Button>
      <ConfirmDialog
        open={confirming}
        title="Make a new secret?"
        confirmLabel="Make a new secret"
        loading={rotate.isPending}
        onConfirm={() => rotate.mutate()}
        onClose={() => setConfirming(false)}
      >
        Tokens signed with the current secret stop working at once: every embedded report shows an error until your
        server signs with the new one.
      </ConfirmDialog>
    </Paper>
  );
}

/** `/studio/embed`: the chosen tenant's embedding settings (`embed:manage`). */
export function EmbedSettingsPage() {
  const tenantId = useSyncExternalStore(onSelectedTenantChange, getSelectedTenantId, () => '');
  const settings = useQuery({ ...embedSettingsQueryOptions(), enabled: tenantId !== '' });
  let body;
  if (tenantId === '') {
    body = (
      <Alert severity="info">Embedding is set per tenant: choose one with the tenant switcher in the top bar.</Alert>
    );
  } else if (settings.isPending) {
    body = <LoadingLine sx={{ py: 4, color: 'text.secondary' }}>Loading the embedding settings...</LoadingLine>;
  } else if (settings.isError) {
    const denied = settings.error instanceof ApiError && settings.error.status === 403;
    body = (
      <Alert
        severity={denied ? 'info' : 'error'}
        action={
          denied ? undefined : (
            <Button color="inherit" size="small" onClick={() => void settings.refetch()}>
              Try again
            </Button>
          )
        }
      >
        {denied
          ? 'Only an administrator of the tenant (the embed:manage permission) sets where its reports may be embedded.'
          : `The embedding settings could not be loaded: ${errorText(settings.error)}`}
      </Alert>
    );
  } else {
    body = (
      <>
        <AllowedSites key={tenantId} settings={settings.data} />
        <EmbedSecretSection key={`${tenantId}-secret`} settings={settings.data} />
      </>
    );
  }
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3, maxWidth: '60rem' }}>
      <Box>
        <Button component={RouterLink} to="/studio/reports" size="small" sx={{ mb: 1 }}>
          ← All reports
        </Button>
        <Typography component="h1" variant="h4" sx={{ fontWeight: 700 }}>
          Embedding
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1, maxWidth: '70ch' }}>
          Show the tenant’s reports inside your own product, each viewer locked to their own rows. A report’s Share
          dialog gives the frame to paste.
        </Typography>
      </Box>
      {body}
    </Box>
  );
}
