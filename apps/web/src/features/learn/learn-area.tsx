import type { Lesson, LessonCheckResult, LessonSummary } from '@dataplatform/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, useSyncExternalStore } from 'react';
import { Outlet, Link as RouterLink, useParams } from 'react-router';
import { LoadingLine } from '../../components/loading-line.js';
import { LoadFailure } from '../../components/query-state.js';
import { ApiError } from '../../lib/api-error.js';
import { FOOTER_BELOW_FOLD } from '../../lib/footer-below-fold.js';
import { myTenantsQueryOptions } from '../../lib/my-tenants.js';
import { QueryProvider } from '../../lib/query-client.js';
import { getSelectedTenantId, onSelectedTenantChange } from '../../lib/session.js';
import { lessonQueryOptions, lessonsQueryOptions, useCheckLesson, useResetLesson } from './api/learn.js';
import { screenOf } from './screens.js';

function useSelectedTenantId(): string {
  return useSyncExternalStore(onSelectedTenantChange, getSelectedTenantId, () => '');
}

/** The tenant the lessons are checked in, or why there is none and what to do. */
function useTenant() {
  const tenantId = useSelectedTenantId();
  const tenants = useQuery(myTenantsQueryOptions());
  const list = tenants.data?.data ?? [];
  return {
    tenantId,
    tenant: list.find((candidate) => candidate.id === tenantId),
    hasTenants: list.length > 0,
    tenants,
  };
}

function NoTenant({ hasTenants }: { hasTenants: boolean }) {
  return (
    <Alert severity="info">
      {hasTenants
        ? 'Lessons are checked on a tenant’s data: choose one of your tenants with the tenant switcher in the top bar.'
        : 'Lessons are checked on a tenant’s data, and you are in no tenant yet: ask an administrator to add you to one. You can read the lessons meanwhile.'}
    </Alert>
  );
}

/** "2 of 3 steps done", as words and as a bar. */
function Progress({ done, total, label }: { done: number; total: number; label: string }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
      <LinearProgress
        variant="determinate"
        value={total === 0 ? 0 : (100 * done) / total}
        aria-label={label}
        sx={{ flex: '1 1 auto', maxWidth: 240, height: 8, borderRadius: 4 }}
      />
      <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
        {done === total && total > 0 ? 'All steps done' : `${done} of ${total} ${total === 1 ? 'step' : 'steps'} done`}
      </Typography>
    </Box>
  );
}

function LessonCard({ lesson }: { lesson: LessonSummary }) {
  return (
    <Paper component="li" variant="outlined" sx={{ listStyle: 'none', p: { xs: 2, sm: 3 } }}>
      <Typography component="h2" variant="h5" sx={{ fontWeight: 600 }}>
        <Link component={RouterLink} to={`/learn/${lesson.slug}`} underline="hover">
          {lesson.order}. {lesson.title}
        </Link>
      </Typography>
      <Typography sx={{ mt: 1 }}>{lesson.summary}</Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, mb: 1.5 }}>
        About {lesson.minutes} minutes, {lesson.steps} {lesson.steps === 1 ? 'step' : 'steps'}
      </Typography>
      <Progress done={lesson.steps_done} total={lesson.steps} label={`Progress in ${lesson.title}`} />
    </Paper>
  );
}

/** /learn: the lessons, with the progress in the selected tenant. */
export function LessonList() {
  const { tenantId, tenant, hasTenants, tenants } = useTenant();
  const lessons = useQuery(lessonsQueryOptions(tenantId));
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      <Box>
        <Typography component="h1" variant="h3" sx={{ fontWeight: 700 }}>
          Learn
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1, maxWidth: '70ch' }}>
          Guided lessons from your first extract to a shared report, done on your own data. After each step, press
          “Check my work”: the server looks at your tenant and says what is done and what is missing.
        </Typography>
      </Box>
      {lessons.isError ? (
        <LoadFailure onRetry={() => void lessons.refetch()}>The lessons could not be loaded.</LoadFailure>
      ) : lessons.isPending || tenants.isPending ? (
        // The tenant's line and the lessons appear together: a line arriving above a list on screen would push it down.
        <LoadingLine sx={{ py: 4, color: 'text.secondary' }}>Loading the lessons...</LoadingLine>
      ) : (
        <>
          {tenant ? (
            <Typography color="text.secondary">
              Your progress in <strong>{tenant.name}</strong>.
            </Typography>
          ) : (
            <NoTenant hasTenants={hasTenants} />
          )}
          {lessons.data.count === 0 ? (
            <Alert severity="info">No lessons are available in this installation yet.</Alert>
          ) : (
            <Box component="ol" sx={{ display: 'flex', flexDirection: 'column', gap: 2, p: 0, m: 0 }}>
              {lessons.data.data.map((lesson) => (
                <LessonCard key={lesson.slug} lesson={lesson} />
              ))}
            </Box>
          )}
        </>
      )}
    </Box>
  );
}

/** The server's HTML of a lesson's Markdown (rendered with safe defaults: no HTML of the file passes). */
function LessonHtml({ html }: { html: string }) {
  return (
    <Box
      sx={{
        maxWidth: '75ch',
        '& > :first-of-type': { mt: 0 },
        '& > :last-child': { mb: 0 },
        // Snippets wrap rather than scroll: a phone shows all of a curl line, and no region needs a tab stop.
        '& pre': {
          p: 1.5,
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          bgcolor: 'action.hover',
          borderRadius: 1,
          fontSize: '0.8125rem',
        },
        '& :not(pre) > code': { px: 0.5, bgcolor: 'action.hover', borderRadius: 0.5, overflowWrap: 'anywhere' },
      }}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

type StepOutcome = LessonCheckResult['steps'][number];

function StepSection({ step, outcome }: { step: Lesson['steps'][number]; outcome: StepOutcome | undefined }) {
  const headingId = useId();
  const done = outcome ? outcome.done : step.done;
  return (
    <Paper
      component="li"
      variant="outlined"
      aria-labelledby={headingId}
      sx={{ listStyle: 'none', p: { xs: 2, sm: 3 }, display: 'flex', flexDirection: 'column', gap: 1.5, minWidth: 0 }}
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
        <Typography id={headingId} component="h2" variant="h6" sx={{ fontWeight: 600, mr: 'auto' }}>
          {step.title}
        </Typography>
        <Chip
          size="small"
          label={done ? 'Done' : 'Not done yet'}
          color={done ? 'success' : 'default'}
          variant={done ? 'filled' : 'outlined'}
        />
      </Box>
      <LessonHtml html={step.html} />
      {outcome ? (
        <Alert severity={outcome.done ? 'success' : 'warning'} sx={{ '& .MuiAlert-message': { minWidth: 0 } }}>
          {outcome.detail}
        </Alert>
      ) : undefined}
      <Box>
        <Button component={RouterLink} to={step.link} variant="outlined" size="small">
          {screenOf(step.link)}
        </Button>
      </Box>
    </Paper>
  );
}

function LessonBody({ tenantId, slug, canCheck }: { tenantId: string; slug: string; canCheck: boolean }) {
  const lesson = useQuery(lessonQueryOptions(tenantId, slug));
  const check = useCheckLesson(tenantId, slug);
  const reset = useResetLesson(tenantId, slug);
  const [outcomes, setOutcomes] = useState<Map<string, StepOutcome>>(new Map());
  const [announcement, setAnnouncement] = useState('');

  if (lesson.isError) {
    if (lesson.error instanceof ApiError && lesson.error.status === 404) {
      return (
        <Alert severity="info">
          There is no such lesson here.{' '}
          <Link component={RouterLink} to="/learn">
            See the lessons there are
          </Link>
          .
        </Alert>
      );
    }
    return <LoadFailure onRetry={() => void lesson.refetch()}>The lesson could not be loaded.</LoadFailure>;
  }
  if (lesson.isPending) return <LoadingLine sx={{ py: 4, color: 'text.secondary' }}>Loading the lesson...</LoadingLine>;
  const { data } = lesson;
  const done = data.steps.filter((step) => outcomes.get(step.id)?.done ?? step.done).length;

  const runCheck = () =>
    check.mutate(undefined, {
      onSuccess: (result) => {
        setOutcomes(new Map(result.steps.map((step) => [step.id, step])));
        const finished = result.steps.filter((step) => step.done).length;
        setAnnouncement(
          finished === result.steps.length
            ? 'Checked: every step is done.'
            : `Checked: ${finished} of ${result.steps.length} steps done. Each step says what is missing.`,
        );
      },
    });
  const runReset = () =>
    reset.mutate(undefined, {
      onSuccess: () => {
        setOutcomes(new Map());
        setAnnouncement('Your progress in this lesson is reset. Your work in the tenant is untouched.');
      },
    });

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      <Box>
        <Typography component="h1" variant="h3" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
          {data.title}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {data.summary} About {data.minutes} minutes.
        </Typography>
      </Box>
      <LessonHtml html={data.intro_html} />
      <Progress done={done} total={data.steps.length} label={`Progress in ${data.title}`} />
      <Box component="ol" sx={{ display: 'flex', flexDirection: 'column', gap: 2, p: 0, m: 0 }}>
        {data.steps.map((step) => (
          <StepSection key={step.id} step={step} outcome={outcomes.get(step.id)} />
        ))}
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 }}>
        <Button variant="contained" onClick={runCheck} disabled={!canCheck || check.isPending}>
          {check.isPending ? 'Checking...' : 'Check my work'}
        </Button>
        <Button onClick={runReset} disabled={!canCheck || reset.isPending}>
          Reset my progress
        </Button>
        <Link component={RouterLink} to="/learn">
          All lessons
        </Link>
      </Box>
      <Typography role="status" variant="body2" color="text.secondary">
        {announcement}
      </Typography>
    </Box>
  );
}

/** /learn/{slug}: one lesson, checked in the selected tenant. */
export function LessonPage() {
  const { slug = '' } = useParams();
  const { tenantId, tenant, hasTenants, tenants } = useTenant();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      <Link component={RouterLink} to="/learn" sx={{ alignSelf: 'flex-start' }}>
        ← All lessons
      </Link>
      {tenants.isPending || tenant ? undefined : <NoTenant hasTenants={hasTenants} />}
      <LessonBody key={`${tenantId}/${slug}`} tenantId={tenantId} slug={slug} canCheck={tenant !== undefined} />
    </Box>
  );
}

/** The area's frame around its screen (the route modules in routes/learn/, rendered in the outlet). */
export function LearnLayout() {
  return (
    // The footer stays below the fold while the lessons load: nothing in view moves (CLS).
    <Container maxWidth="md" sx={{ py: { xs: 3, md: 5 } }} {...{ [FOOTER_BELOW_FOLD]: '' }}>
      <Outlet />
    </Container>
  );
}

/** Learn (issue 60): /learn lists the lessons with the caller's progress, /learn/{slug} is one lesson. */
export function LearnArea() {
  return (
    <QueryProvider>
      <LearnLayout />
    </QueryProvider>
  );
}
