import { sessionMessages, type AccountSession } from '@dataplatform/contract';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useId, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { formatDateTime } from '../../../lib/format.js';
import { showToast } from '../../../lib/toast-store.js';
import { sessionsQueryOptions, useRevokeOtherSessions, useRevokeSession } from '../api/sessions.js';
import { QueryState } from '../../../components/query-state.js';
import { TabHeader } from '../../../components/tab-heading.js';

function deviceName(session: AccountSession): string {
  return session.device ?? 'Unknown browser';
}

/**
 * Where the account is signed in (SESS-1): each live session with when it began, when it was last
 * used, its address and browser; "This device" marks the session of this page. Any other one can be
 * signed out, or all of them at once (SESS-2).
 */
export function SessionsSection() {
  const headingId = useId();
  const sessions = useQuery(sessionsQueryOptions());
  const revoke = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const [signingOut, setSigningOut] = useState<AccountSession>();
  const [signingOutOthers, setSigningOutOthers] = useState(false);
  const list = sessions.data?.data ?? [];
  const others = list.filter((session) => !session.current);

  return (
    <Box component="section" aria-labelledby={headingId} sx={{ display: 'grid', gap: 2 }}>
      <TabHeader id={headingId} title="Active sessions">
        <Button variant="outlined" disabled={others.length === 0} onClick={() => setSigningOutOthers(true)}>
          Sign out all other sessions
        </Button>
      </TabHeader>
      <QueryState
        query={sessions}
        loading="Loading your sessions..."
        failed={sessionMessages.sessionsLoadFailed}
        content={() => (
          <>
            <Box
              component="ul"
              aria-labelledby={headingId}
              sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}
            >
              {list.map((session) => (
                <Paper
                  component="li"
                  key={session.id}
                  variant="outlined"
                  sx={{
                    p: 2,
                    display: 'flex',
                    flexWrap: 'wrap',
                    gap: 2,
                    alignItems: 'center',
                    justifyContent: 'space-between',
                  }}
                >
                  <Box sx={{ minWidth: 0, flex: '1 1 260px' }}>
                    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
                      <Typography component="h3" sx={{ fontWeight: 600 }}>
                        {deviceName(session)}
                      </Typography>
                      {session.current ? <Chip size="small" color="primary" label="This device" /> : undefined}
                    </Box>
                    <Box
                      component="dl"
                      sx={{
                        m: 0,
                        mt: 1,
                        display: 'grid',
                        gridTemplateColumns: 'auto 1fr',
                        columnGap: 1.5,
                        rowGap: 0.25,
                        '& dt, & dd': { typography: 'body2' },
                        '& dt': { color: 'text.secondary' },
                        '& dd': { m: 0, overflowWrap: 'anywhere' },
                      }}
                    >
                      {(
                        [
                          ['Signed in', formatDateTime(session.created_at)],
                          ['Last active', formatDateTime(session.last_seen_at)],
                          ['Address', session.ip ?? 'Unknown'],
                          ['User agent', session.user_agent ?? 'Unknown'],
                        ] as const
                      ).map(([term, value]) => (
                        <Fragment key={term}>
                          <dt>{term}</dt>
                          <dd>{value}</dd>
                        </Fragment>
                      ))}
                    </Box>
                  </Box>
                  {session.current ? undefined : (
                    <Button
                      color="error"
                      aria-label={`Sign out ${deviceName(session)}, signed in ${formatDateTime(session.created_at)}`}
                      onClick={() => setSigningOut(session)}
                    >
                      Sign out
                    </Button>
                  )}
                </Paper>
              ))}
            </Box>
            {others.length === 0 ? (
              <Typography color="text.secondary">{sessionMessages.noOtherSessions}</Typography>
            ) : undefined}
          </>
        )}
      />
      <ConfirmDialog
        open={signingOut !== undefined}
        title="Sign Out Session"
        confirmLabel="Sign out"
        loading={revoke.isPending}
        onClose={() => setSigningOut(undefined)}
        onConfirm={() =>
          signingOut &&
          revoke.mutate(signingOut.id, {
            onSuccess: () => showToast('Session signed out', 'success'),
            onSettled: () => setSigningOut(undefined),
          })
        }
      >
        {signingOut
          ? `Sign out ${deviceName(signingOut)} (${signingOut.ip ?? 'unknown address'})? Whoever uses it will have to log in again.`
          : undefined}
      </ConfirmDialog>
      <ConfirmDialog
        open={signingOutOthers}
        title="Sign Out Other Sessions"
        confirmLabel="Sign out all"
        loading={revokeOthers.isPending}
        onClose={() => setSigningOutOthers(false)}
        onConfirm={() =>
          revokeOthers.mutate(undefined, {
            onSuccess: ({ revoked }) =>
              showToast(
                revoked === 1 ? 'Signed out 1 other session' : `Signed out ${revoked} other sessions`,
                'success',
              ),
            onSettled: () => setSigningOutOthers(false),
          })
        }
      >
        Sign out everywhere but this device? Every other browser will have to log in again.
      </ConfirmDialog>
    </Box>
  );
}
