import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  ALERT_CONDITION_PATTERN,
  isTimeZone,
  SCHEDULE_RECIPIENTS_MAX,
  scheduleMessages,
  type ReportPublic,
  type Schedule,
  type ScheduleCreate,
} from '@dataplatform/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { LoadingLine } from '../../../components/loading-line.js';
import { errorText } from '../../../lib/api-error.js';
import { NativeChoice } from '../agent/native-choice.js';
import { audienceQueryOptions } from '../api/sharing.js';
import {
  createSchedule,
  deleteSchedule,
  scheduleKeys,
  schedulesQueryOptions,
  setSchedulePaused,
} from './schedules-api.js';
import { ListRow } from '../components/list-row.js';
import { MembersField } from '../components/members-field.js';

const FREQUENCIES = [
  { value: 'daily', label: 'Every day' },
  { value: 'weekly', label: 'Every week' },
  { value: 'monthly', label: 'Every month' },
] as const;
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'].map((label, i) => ({
  value: String(i + 1),
  label,
}));
const DAYS = Array.from({ length: 28 }, (_, i) => ({ value: String(i + 1), label: String(i + 1) }));

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The browser's own zone, the form's first guess. */
function localZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isTimeZone(zone) ? zone : 'UTC';
}

function describe(schedule: Schedule): string {
  const at = `at ${schedule.time} (${schedule.time_zone})`;
  const day =
    schedule.frequency === 'weekly'
      ? `every ${WEEKDAYS[(schedule.weekday ?? 1) - 1]!.label}`
      : schedule.frequency === 'monthly'
        ? `on day ${schedule.day_of_month ?? 1} of every month`
        : 'every day';
  const kind = schedule.alert ? `Alert when ${schedule.alert.block} ${schedule.alert.condition}, checked` : 'Mailed';
  return `${kind} ${day} ${at}`;
}

function statusChip(schedule: Schedule) {
  if (schedule.status === 'active') return <Chip size="small" color="success" label="On" />;
  if (schedule.status === 'paused') return <Chip size="small" label="Paused" />;
  return <Chip size="small" color="warning" label="Stopped" />;
}

/** One schedule: what and when, to whom, its state, Pause/Resume and Delete. */
function ScheduleRow({ schedule, onDelete }: { schedule: Schedule; onDelete: (schedule: Schedule) => void }) {
  const queryClient = useQueryClient();
  const pause = useMutation({
    mutationFn: (paused: boolean) => setSchedulePaused(schedule.id, paused),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scheduleKeys.list(schedule.report_id) }),
    meta: { errorToast: false },
  });
  const recipients = schedule.addresses.length + schedule.member_ids.length;
  return (
    <ListRow>
      <Box sx={{ mr: 'auto', minWidth: 0, overflowWrap: 'anywhere' }}>
        <Typography variant="body2">{describe(schedule)}</Typography>
        <Typography variant="body2" color="text.secondary">
          To {recipients === 1 ? '1 recipient' : `${recipients} recipients`}
          {schedule.addresses.length > 0 ? `: ${schedule.addresses.join(', ')}` : ''}
          {schedule.next_run_at ? ` · next ${when(schedule.next_run_at)}` : ''}
        </Typography>
        {schedule.status_reason ? (
          <Typography variant="body2" color="text.secondary">
            {schedule.status === 'stopped' ? 'Stopped: ' : 'Last run failed: '}
            {schedule.status_reason}
          </Typography>
        ) : undefined}
        {pause.isError ? (
          <Typography variant="body2" color="error">
            Not changed: {errorText(pause.error)}
          </Typography>
        ) : undefined}
      </Box>
      {statusChip(schedule)}
      {schedule.status !== 'stopped' ? (
        <Button size="small" loading={pause.isPending} onClick={() => pause.mutate(schedule.status === 'active')}>
          {schedule.status === 'active' ? 'Pause' : 'Resume'}
        </Button>
      ) : undefined}
      <Button size="small" color="error" onClick={() => onDelete(schedule)}>
        Delete
      </Button>
    </ListRow>
  );
}

/** The form that adds a schedule or an alert. */
function NewSchedule({ report }: { report: ReportPublic }) {
  const ids = { addresses: useId(), members: useId(), time: useId(), zone: useId(), condition: useId() };
  const queryClient = useQueryClient();
  const audience = useQuery({ ...audienceQueryOptions(report.id), enabled: !report.built_in });
  const kpis = report.blocks.filter((block) => block.kind === 'kpi');
  const [frequency, setFrequency] = useState<ScheduleCreate['frequency']>('daily');
  const [weekday, setWeekday] = useState('1');
  const [day, setDay] = useState('1');
  const [time, setTime] = useState('08:00');
  const [zone, setZone] = useState(localZone);
  const [addresses, setAddresses] = useState('');
  const [memberIds, setMemberIds] = useState<string[]>([]);
  const [alertBlock, setAlertBlock] = useState('');
  const [condition, setCondition] = useState('> 1000');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  const create = useMutation({
    mutationFn: (body: ScheduleCreate) => createSchedule(report.id, body),
    onSuccess: async () => {
      setSaved(true);
      setAddresses('');
      setMemberIds([]);
      await queryClient.invalidateQueries({ queryKey: scheduleKeys.list(report.id) });
    },
    meta: { errorToast: false },
  });
  const addressList = addresses
    .split(/[\s,;]+/)
    .map((address) => address.trim())
    .filter((address) => address !== '');
  const members = audience.data?.members ?? [];

  function submit() {
    setSaved(false);
    if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(time)) return setProblem(scheduleMessages.timeInvalid);
    if (!isTimeZone(zone)) return setProblem(scheduleMessages.timeZoneInvalid);
    if (addressList.length + memberIds.length === 0) return setProblem(scheduleMessages.recipientsRequired);
    if (addressList.length + memberIds.length > SCHEDULE_RECIPIENTS_MAX)
      return setProblem(scheduleMessages.tooManyRecipients);
    if (alertBlock !== '' && !ALERT_CONDITION_PATTERN.test(condition.trim())) {
      return setProblem(scheduleMessages.conditionInvalid);
    }
    setProblem(undefined);
    create.mutate({
      frequency,
      time,
      time_zone: zone,
      ...(frequency === 'weekly' ? { weekday: Number(weekday) } : {}),
      ...(frequency === 'monthly' ? { day_of_month: Number(day) } : {}),
      addresses: addressList,
      member_ids: memberIds,
      ...(alertBlock !== '' ? { alert: { block: alertBlock, condition: condition.trim() } } : {}),
    });
  }

  return (
    <Box
      component="form"
      noValidate
      aria-label="New schedule"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      sx={{ display: 'flex', flexDirection: 'column', gap: 2, mt: 2 }}
    >
      <Typography component="h3" variant="subtitle1">
        New schedule
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
        <NativeChoice
          label="How often"
          value={frequency}
          onChange={(value) => setFrequency(value as ScheduleCreate['frequency'])}
          options={FREQUENCIES}
        />
        {frequency === 'weekly' ? (
          <NativeChoice label="Day" value={weekday} onChange={setWeekday} options={WEEKDAYS} />
        ) : undefined}
        {frequency === 'monthly' ? (
          <NativeChoice label="Day of the month" value={day} onChange={setDay} options={DAYS} minWidth={120} />
        ) : undefined}
        <TextField
          id={ids.time}
          size="small"
          label="Time"
          type="time"
          value={time}
          onChange={(event) => setTime(event.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          id={ids.zone}
          size="small"
          label="Time zone"
          value={zone}
          onChange={(event) => setZone(event.target.value)}
          helperText="An IANA name, such as Europe/Paris"
        />
      </Box>
      {!report.built_in ? (
        <MembersField
          id={ids.members}
          members={members}
          loading={audience.isPending}
          chosenIds={memberIds}
          onChange={setMemberIds}
          helperText={
            audience.isError
              ? `Members could not be loaded: ${errorText(audience.error)}`
              : 'Members of the tenant who see this report.'
          }
        />
      ) : undefined}
      <TextField
        id={ids.addresses}
        label="Addresses"
        value={addresses}
        onChange={(event) => setAddresses(event.target.value)}
        multiline
        minRows={2}
        helperText={`E-mail addresses, separated by commas or new lines; ${SCHEDULE_RECIPIENTS_MAX} recipients at most in all.`}
      />
      {kpis.length > 0 ? (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
          <NativeChoice
            label="Mail"
            value={alertBlock}
            onChange={setAlertBlock}
            minWidth={220}
            options={[
              { value: '', label: 'The whole report, every time' },
              ...kpis.map((block) => ({
                value: block.id,
                label: `Only when ${block.title ?? block.id} meets a condition`,
              })),
            ]}
          />
          {alertBlock !== '' ? (
            <TextField
              id={ids.condition}
              size="small"
              label="Condition"
              value={condition}
              onChange={(event) => setCondition(event.target.value)}
              helperText="> 1000, < 0, >= 5, <= 5, or changes"
            />
          ) : undefined}
        </Box>
      ) : undefined}
      {problem ? <Alert severity="error">{problem}</Alert> : undefined}
      {create.isError ? <Alert severity="error">Not saved: {errorText(create.error)}</Alert> : undefined}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Button type="submit" variant="contained" loading={create.isPending}>
          Add schedule
        </Button>
        <Typography role="status" variant="body2" color="success.main">
          {saved ? 'Saved: the schedule is listed above.' : ''}
        </Typography>
      </Box>
    </Box>
  );
}

/**
 * The report's Schedules tab (issue 59): its schedules and alerts, each paused, resumed or deleted,
 * and a form for a new one. Deliveries go by mail: the server runs the report at the chosen time.
 */
export function SchedulesPanel({ report }: { report: ReportPublic }) {
  const queryClient = useQueryClient();
  const schedules = useQuery(schedulesQueryOptions(report.id));
  const [deleting, setDeleting] = useState<Schedule | undefined>(undefined);
  const remove = useMutation({
    mutationFn: (schedule: Schedule) => deleteSchedule(schedule.id),
    onSuccess: async () => {
      setDeleting(undefined);
      await queryClient.invalidateQueries({ queryKey: scheduleKeys.list(report.id) });
    },
    meta: { errorToast: false },
  });
  let list;
  if (schedules.isPending) list = <LoadingLine>Loading schedules...</LoadingLine>;
  else if (schedules.isError) {
    list = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void schedules.refetch()}>
            Try again
          </Button>
        }
      >
        The schedules could not be loaded: {errorText(schedules.error)}
      </Alert>
    );
  } else if (schedules.data.data.length === 0) {
    list = (
      <Typography variant="body2" color="text.secondary">
        No schedules yet: add one below to mail this report, or an alert on one of its figures.
      </Typography>
    );
  } else {
    list = (
      <Box component="ul" aria-label="Schedules" sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {schedules.data.data.map((schedule) => (
          <ScheduleRow key={schedule.id} schedule={schedule} onDelete={setDeleting} />
        ))}
      </Box>
    );
  }
  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        Each delivery mails the report’s figures, its charts as images and its tables as CSV files.
      </Typography>
      {list}
      <NewSchedule report={report} />
      <ConfirmDialog
        open={deleting !== undefined}
        title="Delete this schedule?"
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(undefined)}
      >
        Nothing more is mailed for it.
        {remove.isError ? ` Not deleted: ${errorText(remove.error)}` : ''}
      </ConfirmDialog>
    </Box>
  );
}
