import { billingMessages, type Plan, type PaymentMethod, type Subscription, type UserMe } from '@dataplatform/contract';
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
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { CardList } from '../../../components/card-list.js';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { LoadFailure } from '../../../components/query-state.js';
import { paths } from '../../../config/paths.js';
import { ApiError, errorText, failureText } from '../../../lib/api-error.js';
import { operationErrorText } from '../../../lib/error-handling.js';
import { formatDate, formatMoney } from '../../../lib/format.js';
import { showToast } from '../../../lib/toast-store.js';
import { billingConfigQueryOptions, paymentMethodsQueryOptions } from '../api/payment-methods.js';
import { plansQueryOptions, useCreatePlan, useDeletePlan, usePushStripePrice, useUpdatePlan } from '../api/plans.js';
import { subscriptionQueryOptions, useCancelSubscription, useSubscribe } from '../api/subscription.js';
import { LoadingLine } from '../../../components/loading-line.js';
import { FormError } from '../../../components/form-error.js';
import { TabHeader } from '../../../components/tab-heading.js';

// Only superusers edit plans: the form (react-hook-form, zod) loads when they open it.
const PlanDialog = lazy(() => import('./plan-dialog.js').then((m) => ({ default: m.PlanDialog })));

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
  const create = useCreatePlan();
  const update = useUpdatePlan();
  const cancel = useCancelSubscription();
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
      <DeletePlanDialog plan={deleting} onClose={() => setDeleting(undefined)} />
      <SubscribeDialog
        plan={subscribing}
        switching={current !== null && current !== undefined}
        onClose={() => setSubscribing(undefined)}
      />
      <ConfirmDialog
        open={cancelling}
        title="Cancel Subscription"
        confirmLabel="Cancel Subscription"
        cancelLabel="Keep Subscription"
        loading={cancel.isPending}
        onClose={() => setCancelling(false)}
        onConfirm={() =>
          cancel.mutate(undefined, {
            onSuccess: (saved) =>
              showToast(
                `Subscription cancelled. It stays active until ${formatDate(saved.current_period_end)}.`,
                'success',
              ),
            onSettled: () => setCancelling(false),
          })
        }
      >
        {current
          ? `Your ${current.plan.name} plan stays active until ${formatDate(current.current_period_end)}, then ends. You will not be charged again.`
          : ''}
      </ConfirmDialog>
    </Box>
  );
}

/** Delete asks first; a plan with subscribers is refused by the server, and can be deactivated instead. */
function DeletePlanDialog({ plan, onClose }: { plan: Plan | undefined; onClose: () => void }) {
  const remove = useDeletePlan();
  const update = useUpdatePlan();
  const [refusal, setRefusal] = useState<string>();
  const close = () => {
    setRefusal(undefined);
    onClose();
  };
  return (
    <ConfirmDialog
      open={plan !== undefined}
      title="Delete Plan"
      loading={remove.isPending || update.isPending}
      onClose={close}
      onConfirm={() =>
        plan &&
        remove.mutate(plan.id, {
          onSuccess: () => {
            showToast('Plan deleted successfully', 'success');
            close();
          },
          onError: (error) => {
            if (error instanceof ApiError && error.status === 409) setRefusal(failureText(error.body));
            else {
              showToast(operationErrorText(error, billingMessages.deletePlanFailed), 'error');
              close();
            }
          },
        })
      }
      extraAction={
        refusal && plan?.is_active ? (
          <Button
            onClick={() =>
              update.mutate(
                { id: plan.id, body: { is_active: false } },
                {
                  onSuccess: () => {
                    showToast('Plan deactivated', 'success');
                    close();
                  },
                },
              )
            }
          >
            Deactivate instead
          </Button>
        ) : undefined
      }
    >
      {refusal ? (
        <Alert severity="warning" role="alert">
          {refusal}
        </Alert>
      ) : (
        `Are you sure you want to delete the plan "${plan?.name ?? ''}"? This action cannot be undone.`
      )}
    </ConfirmDialog>
  );
}

/** Which saved card pays: the default is preselected; with none saved, the way to add one. */
function SubscribeDialog({
  plan,
  switching,
  onClose,
}: {
  plan: Plan | undefined;
  switching: boolean;
  onClose: () => void;
}) {
  const titleId = useId();
  return (
    <Dialog open={plan !== undefined} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      {plan ? (
        <SubscribeForm key={plan.id} plan={plan} switching={switching} titleId={titleId} onClose={onClose} />
      ) : undefined}
    </Dialog>
  );
}

function cardLabel(card: PaymentMethod): string {
  return `${card.card_type.toUpperCase()} •••• ${card.last_four}${card.is_default ? ' (default)' : ''}`;
}

function SubscribeForm({
  plan,
  switching,
  titleId,
  onClose,
}: {
  plan: Plan;
  switching: boolean;
  titleId: string;
  onClose: () => void;
}) {
  const methods = useQuery(paymentMethodsQueryOptions());
  const subscribe = useSubscribe();
  const cards = methods.data?.data ?? [];
  const [chosen, setChosen] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const selected = chosen ?? cards.find((card) => card.is_default)?.id ?? '';

  const submit = () => {
    if (cards.length === 0) return setProblem(billingMessages.addPaymentMethodFirst);
    if (selected === '') return setProblem(billingMessages.selectPaymentMethod);
    setProblem(undefined);
    subscribe.mutate(
      { planId: plan.id, paymentMethodId: selected },
      {
        onSuccess: () => {
          showToast(`You are now subscribed to ${plan.name}`, 'success');
          onClose();
        },
        onError: (error) => setProblem(`${billingMessages.createSubscriptionFailed}: ${errorText(error)}`),
      },
    );
  };

  return (
    <>
      <DialogTitle id={titleId}>{switching ? `Switch to ${plan.name}` : `Subscribe to ${plan.name}`}</DialogTitle>
      <DialogContent>
        <Typography sx={{ mb: 2 }}>{planPriceText(plan)}</Typography>
        <FormError message={problem} sx={{ mb: 2 }} />
        {methods.isPending ? (
          <LoadingLine>Loading payment methods...</LoadingLine>
        ) : cards.length === 0 ? (
          <Box sx={{ display: 'grid', gap: 1 }}>
            <Typography>{billingMessages.addPaymentMethodFirst}</Typography>
            <Box>
              <Button component={RouterLink} to={paths.settings.paymentMethods} onClick={onClose} variant="outlined">
                Go to Payment Methods
              </Button>
            </Box>
          </Box>
        ) : (
          <RadioGroup
            aria-label="Payment method"
            value={selected}
            onChange={(event) => {
              setChosen(event.target.value);
              setProblem(undefined);
            }}
          >
            {cards.map((card) => (
              <FormControlLabel key={card.id} value={card.id} control={<Radio />} label={cardLabel(card)} />
            ))}
          </RadioGroup>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={subscribe.isPending}>
          Cancel
        </Button>
        <Button variant="contained" loading={subscribe.isPending} onClick={submit}>
          Subscribe
        </Button>
      </DialogActions>
    </>
  );
}
