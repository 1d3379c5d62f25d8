import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import type { ReportPublic, ReportVisibility } from '@dataplatform/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { LoadingLine } from '../../../components/loading-line.js';
import { errorText } from '../../../lib/api-error.js';
import { audienceQueryOptions, saveVisibility, sharingKeys, visibilityQueryOptions } from '../api/sharing.js';
import type { ParamValues } from '../report-view.js';
import { SchedulesPanel } from '../schedules/schedules-panel.js';
import { EmbedSnippet } from './embed-snippet.js';
import { ShareLinks } from './share-links.js';
import { MembersField } from '../components/members-field.js';

export interface ShareDialogProps {
  open: boolean;
  onClose: () => void;
  report: ReportPublic;
  /** The parameter values the viewer shows now: a new link may fix them. */
  values: ParamValues;
}

type Panel = 'people' | 'links' | 'embed' | 'schedules';

/** "Who sees it": every member of the tenant, or the members and roles named (and the report's creator). */
function WhoSeesIt({ report }: { report: ReportPublic }) {
  const ids = { choice: useId(), members: useId(), roles: useId() };
  const queryClient = useQueryClient();
  const visibility = useQuery(visibilityQueryOptions(report.id));
  const audience = useQuery(audienceQueryOptions(report.id));
  const [draft, setDraft] = useState<ReportVisibility | undefined>(undefined);
  // Said in the dialog, not in a toast: the page behind a modal is hidden from screen readers.
  const [saved, setSaved] = useState<ReportVisibility['visibility'] | undefined>(undefined);
  const save = useMutation({
    mutationFn: (next: ReportVisibility) => saveVisibility(report.id, next),
    onSuccess: (next) => {
      queryClient.setQueryData(sharingKeys.visibility(report.id), next);
      setDraft(undefined);
      setSaved(next.visibility);
    },
    meta: { errorToast: false },
  });

  if (visibility.isPending || audience.isPending) return <LoadingLine>Loading who sees this report...</LoadingLine>;
  if (visibility.isError || audience.isError) {
    return (
      <Alert
        severity="error"
        action={
          <Button
            color="inherit"
            size="small"
            onClick={() => void Promise.all([visibility.refetch(), audience.refetch()])}
          >
            Try again
          </Button>
        }
      >
        Who sees this report could not be loaded: {errorText(visibility.error ?? audience.error)}
      </Alert>
    );
  }
  const current = draft ?? visibility.data;
  const members = audience.data.members;
  const roles = audience.data.roles;
  const restricted = current.visibility === 'restricted';
  const chosenRoles = roles.filter((role) => current.role_ids.includes(role.id));
  return (
    <Box
      component="form"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(current);
      }}
      sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
    >
      <RadioGroup
        aria-labelledby={ids.choice}
        value={current.visibility}
        onChange={(event) => setDraft({ ...current, visibility: event.target.value as ReportVisibility['visibility'] })}
      >
        <Typography id={ids.choice} variant="body2" color="text.secondary">
          Who in the tenant may open this report, run it and export it
        </Typography>
        <FormControlLabel value="tenant" control={<Radio />} label="Every member of the tenant" />
        <FormControlLabel value="restricted" control={<Radio />} label="Only the people and roles named below" />
      </RadioGroup>
      {restricted ? (
        <>
          <MembersField
            id={ids.members}
            members={members}
            chosenIds={current.user_ids}
            onChange={(userIds) => setDraft({ ...current, user_ids: userIds })}
            helperText={
              audience.data.members_truncated
                ? `The first ${members.length} members by email are offered.`
                : 'Members of the tenant, by name or email.'
            }
          />
          <Autocomplete
            multiple
            options={roles}
            value={chosenRoles}
            getOptionLabel={(role) => role.name}
            isOptionEqualToValue={(option, value) => option.id === value.id}
            onChange={(_event, chosen) => setDraft({ ...current, role_ids: chosen.map((role) => role.id) })}
            renderInput={(params) => (
              <TextField {...params} id={ids.roles} label="Roles" helperText="Members holding any of these roles." />
            )}
          />
          <Typography variant="body2" color="text.secondary">
            Whoever made the report always sees it. Anyone else opening it is told it does not exist.
          </Typography>
        </>
      ) : undefined}
      {save.isError ? <Alert severity="error">Not saved: {errorText(save.error)}</Alert> : undefined}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Button type="submit" variant="contained" loading={save.isPending} disabled={draft === undefined}>
          Save who sees it
        </Button>
        <Typography role="status" variant="body2" color="success.main">
          {saved === undefined || draft !== undefined
            ? ''
            : saved === 'tenant'
              ? 'Saved: every member of the tenant sees this report.'
              : 'Saved: only the people and roles named see this report.'}
        </Typography>
      </Box>
    </Box>
  );
}

/**
 * The report's Share dialog (issue 58): who in the tenant sees it, read-only links for people
 * without an account, and the snippet that embeds it in another site.
 */
export default function ShareDialog({ open, onClose, report, values }: ShareDialogProps) {
  const titleId = useId();
  const [panel, setPanel] = useState<Panel>('people');
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const tabId = (name: Panel) => `${titleId}-tab-${name}`;
  const panelId = (name: Panel) => `${titleId}-panel-${name}`;
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md" fullScreen={phone}>
      <DialogTitle id={titleId}>Share “{report.title}”</DialogTitle>
      <Tabs
        value={panel}
        onChange={(_event, next: Panel) => setPanel(next)}
        aria-label="Ways to share"
        // Scrolled with arrows on a phone, where the four tabs may not fit; laid out plainly where
        // they do (a scrollable strip showed its arrows at 1280 px too).
        {...(phone ? { variant: 'scrollable', allowScrollButtonsMobile: true } : {})}
        sx={{ px: 3, borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab value="people" label="Who sees it" id={tabId('people')} aria-controls={panelId('people')} />
        <Tab value="links" label="Links" id={tabId('links')} aria-controls={panelId('links')} />
        <Tab value="embed" label="Embed" id={tabId('embed')} aria-controls={panelId('embed')} />
        <Tab value="schedules" label="Schedules" id={tabId('schedules')} aria-controls={panelId('schedules')} />
      </Tabs>
      <DialogContent>
        <Box role="tabpanel" id={panelId(panel)} aria-labelledby={tabId(panel)} sx={{ pt: 1 }}>
          {panel === 'people' ? <WhoSeesIt report={report} /> : undefined}
          {panel === 'links' ? <ShareLinks report={report} values={values} /> : undefined}
          {panel === 'embed' ? <EmbedSnippet report={report} values={values} /> : undefined}
          {panel === 'schedules' ? <SchedulesPanel report={report} /> : undefined}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
