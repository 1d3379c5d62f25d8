import { billingMessages, type Plan, type Subscription, type UserMe } from '@dataplatform/contract';
import Add from '@mui/icons-material/Add';
import CheckCircle from '@mui/icons-material/CheckCircle';
import CloudSync from '@mui/icons-material/CloudSync';
import Delete from '@mui/icons-material/Delete';
import Edit from '@mui/icons-material/Edit';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { CardList } from '../../../components/card-list.js';
import { LoadFailure } from '../../../components/query-state.js';
import { formatDate, formatMoney } from '../../../lib/format.js';
import { showToast } from '../../../lib/toast-store.js';
import { billingConfigQueryOptions } from '../api/payment-methods.js';
import { plansQueryOptions, useCreatePlan, usePushStripePrice, useUpdatePlan } from '../api/plans.js';
import { subscriptionQueryOptions } from '../api/subscription.js';
import { LoadingLine } from '../../../components/loading-line.js';
import { TabHeader } from '../../../components/tab-heading.js';

// Only superusers edit plans: the form (react-hook-form, zod) loads when they open it.
const PlanDialog = lazy(() => import('./plan-dialog.js').then((m) => ({ default: m.PlanDialog })));
// The other dialogs (and MUI's Dialog with them) load when the first of them opens: the tab's first
// load carries the cards alone.
const DeletePlanDialog = lazy(() => import('./plans-dialogs.js').then((m) => ({ default: m.DeletePlanDialog })));
const SubscribeDialog = lazy(() => import('./plans-dialogs.js').then((m) => ({ default: m.SubscribeDialog })));
const CancelSubscriptionDialog = lazy(() =>
  import('./plans-dialogs.js').then((m) => ({ default: m.CancelSubscriptionDialog })),
);

/** "$49.00 / month", "$990.00 / year". */
export function planPriceText(plan: Pick<Plan, 'price' | 'currency' | 'billing_period'>): string {
  return `${formatMoney(plan.price, plan.currency)} / ${plan.billing_period === 'annual' ? 'year' : 'month'}`;
}

function isCurrent(plan: Plan, subscription: Subscription | null | undefined): boolean {
  return (
    subscription !== null &&
    subscription !== undefined &&
    subscription.plan.id === plan.id &&
    subscription.status !== 'canceled'
  );
}

/**
 * Subscription Plans (SET-PLANS-1 to SET-PLANS-10): cards by ascending price, the current plan
 * marked; Subscribe, Cancel Subscription; for superusers Add Plan, edit and delete.
 */
export function PlansTab({ me }: { me: UserMe | undefined }) {
  const plans = useQuery(plansQueryOptions());
  const subscription = useQuery(subscriptionQueryOptions());
  const config = useQuery(billingConfigQueryOptions());
  const superuser = me?.is_superuser === true;
  const [editing, setEditing] = useState<{ plan: Plan | undefined }>();
  const [deleting, setDeleting] = useState<Plan>();
  const [subscribing, setSubscribing] = useState<Plan>();
  const [cancelling, setCancelling] = useState(false);
  // The dialogs load with the first one opened, and stay so that each can play its closing transition.
  const [dialogsWanted, setDialogsWanted] = useState(false);
  if (!dialogsWanted && (deleting !== undefined || subscribing !== undefined || cancelling)) setDialogsWanted(true);
  const create = useCreatePlan();
  const update = useUpdatePlan();
  const pushPrice = usePushStripePrice();
  const current = subscription.data;

  const sorted = [...(plans.data?.data ?? [])].sort((a, b) => Number(a.price) - Number(b.price));

  let body: ReactNode;
  if (plans.isPending) {
    body = <LoadingLine>Loading plans...</LoadingLine>;
  } else if (plans.isError) {
    body = (
      <LoadFailure onRetry={() => void plans.refetch()} retrying={plans.isFetching}>
        {billingMessages.plansLoadFailed}
      </LoadFailure>
    );
  } else if (sorted.length === 0) {
    body = <Typography color="text.secondary">{billingMessages.noPlans}</Typography>;
  } else {
    body = (
      <CardList label="Plans">
        {sorted.map((plan) => {
          const currentPlan = isCurrent(plan, current);
          return (
            <Card
              component="li"
              key={plan.id}
              variant="outlined"
              aria-label={plan.name}
              sx={{
                display: 'flex',
                flexDirection: 'column',
                ...(currentPlan ? { borderColor: 'primary.main', borderWidth: 2, bgcolor: 'action.selected' } : {}),
              }}
            >
              <CardContent sx={{ flexGrow: 1 }}>
                <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
                  <Typography variant="h3" sx={{ fontSize: '1.25rem', flexGrow: 1 }}>
                    {plan.name}
                  </Typography>
                  {currentPlan ? <Chip size="small" color="primary" label="Current Plan" /> : undefined}
                  {!plan.is_active ? <Chip size="small" label="Inactive" /> : undefined}
                </Box>
                <Typography sx={{ fontSize: '1.5rem', fontWeight: 700, my: 1 }}>{planPriceText(plan)}</Typography>
                <Typography color="text.secondary" sx={{ mb: 1 }}>
                  {plan.description}
                </Typography>
                <Box
                  component="ul"
                  aria-label={`${plan.name} features`}
                  sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 0.5 }}
                >
                  {plan.features.map((feature) => (
                    <Box component="li" key={feature} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
                      <CheckCircle fontSize="small" color="success" aria-hidden="true" />
                      {feature}
                    </Box>
                  ))}
                </Box>
                {plan.roles.length > 0 ? (
                  <Box
                    component="ul"
                    aria-label={`${plan.name} roles`}
                    sx={{ listStyle: 'none', p: 0, m: 0, mt: 1, display: 'grid', gap: 0.5 }}
                  >
                    {plan.roles.map((role) => (
                      <Box component="li" key={role.id} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
                        <CheckCircle fontSize="small" color="success" aria-hidden="true" />
                        Role: {role.name}
                      </Box>
                    ))}
                  </Box>
                ) : undefined}
                {currentPlan && current?.cancel_at_period_end ? (
                  <Alert severity="info" sx={{ mt: 2 }}>
                    Cancelled: stays active until {formatDate(current.current_period_end)}.
                  </Alert>
                ) : undefined}
              </CardContent>
              <CardActions sx={{ flexWrap: 'wrap', gap: 1 }}>
                {currentPlan ? (
                  current?.status === 'active' && !current.cancel_at_period_end ? (
                    <Button color="error" onClick={() => setCancelling(true)}>
                      Cancel Subscription
                    </Button>
                  ) : undefined
                ) : (
                  <Button variant="contained" disabled={!plan.is_active} onClick={() => setSubscribing(plan)}>
                    Subscribe
                  </Button>
                )}
                {superuser ? (
                  <Box sx={{ ml: 'auto' }}>
                    {config.data?.provider === 'stripe' ? (
                      <IconButton
                        aria-label={`Update the Stripe price of ${plan.name}`}
                        disabled={pushPrice.isPending}
                        onClick={() =>
                          pushPrice.mutate(plan.id, { onSuccess: () => showToast('Stripe price updated', 'success') })
                        }
                      >
                        <CloudSync />
                      </IconButton>
                    ) : undefined}
                    <IconButton aria-label={`Edit plan ${plan.name}`} onClick={() => setEditing({ plan })}>
                      <Edit />
                    </IconButton>
                    <IconButton aria-label={`Delete plan ${plan.name}`} onClick={() => setDeleting(plan)}>
                      <Delete />
                    </IconButton>
                  </Box>
                ) : undefined}
              </CardActions>
            </Card>
          );
        })}
      </CardList>
    );
  }

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <TabHeader title="Subscription Plans">
        {superuser ? (
          <Button
            variant="contained"
            startIcon={<Add aria-hidden="true" />}
            onClick={() => setEditing({ plan: undefined })}
          >
            Add Plan
          </Button>
        ) : undefined}
      </TabHeader>
      {body}
      {editing !== undefined ? (
        <Suspense fallback={null}>
          <PlanDialog
            open
            plan={editing?.plan}
            onClose={() => setEditing(undefined)}
            onSubmit={async (values) => {
              if (!me) throw new Error('User not authenticated');
              const plan = editing?.plan;
              if (plan) {
                await update.mutateAsync({ id: plan.id, body: values });
                showToast('Plan updated successfully', 'success');
              } else {
                await create.mutateAsync(values);
                showToast('Plan created successfully', 'success');
              }
            }}
          />
        </Suspense>
      ) : undefined}
      {dialogsWanted ? (
        <Suspense fallback={null}>
          <DeletePlanDialog plan={deleting} onClose={() => setDeleting(undefined)} />
          <SubscribeDialog
            plan={subscribing}
            switching={current !== null && current !== undefined}
            onClose={() => setSubscribing(undefined)}
          />
          <CancelSubscriptionDialog
            open={cancelling}
            subscription={current ?? undefined}
            onClose={() => setCancelling(false)}
          />
        </Suspense>
      ) : undefined}
    </Box>
  );
}
