import { billingMessages, type Plan, type PaymentMethod, type Subscription } from '@dataplatform/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { FormError } from '../../../components/form-error.js';
import { LoadingLine } from '../../../components/loading-line.js';
import { paths } from '../../../config/paths.js';
import { ApiError, errorText, failureText } from '../../../lib/api-error.js';
import { operationErrorText } from '../../../lib/error-handling.js';
import { formatDate } from '../../../lib/format.js';
import { showToast } from '../../../lib/toast-store.js';
import { paymentMethodsQueryOptions } from '../api/payment-methods.js';
import { useDeletePlan, useUpdatePlan } from '../api/plans.js';
import { useCancelSubscription, useSubscribe } from '../api/subscription.js';
import { planPriceText } from './plans-tab.js';

/** Cancel asks first, and says until when the plan stays active. */
export function CancelSubscriptionDialog({
  open,
  subscription,
  onClose,
}: {
  open: boolean;
  subscription: Subscription | undefined;
  onClose: () => void;
}) {
  const cancel = useCancelSubscription();
  return (
    <ConfirmDialog
      open={open}
      title="Cancel Subscription"
      confirmLabel="Cancel Subscription"
      cancelLabel="Keep Subscription"
      loading={cancel.isPending}
      onClose={onClose}
      onConfirm={() =>
        cancel.mutate(undefined, {
          onSuccess: (saved) =>
            showToast(
              `Subscription cancelled. It stays active until ${formatDate(saved.current_period_end)}.`,
              'success',
            ),
          onSettled: onClose,
        })
      }
    >
      {subscription
        ? `Your ${subscription.plan.name} plan stays active until ${formatDate(subscription.current_period_end)}, then ends. You will not be charged again.`
        : ''}
    </ConfirmDialog>
  );
}

/** Delete asks first; a plan with subscribers is refused by the server, and can be deactivated instead. */
export function DeletePlanDialog({ plan, onClose }: { plan: Plan | undefined; onClose: () => void }) {
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
export function SubscribeDialog({
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
