import { billingMessages, type BillingConfig } from '@dataplatform/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { errorText } from '../../../lib/api-error.js';
import { showToast } from '../../../lib/toast-store.js';
import { billingConfigQueryOptions, useAddPaymentMethod } from '../api/payment-methods.js';
import { CardInputError, type CardCollector } from './card-collector.js';
import { SandboxCardField } from './sandbox-card-field.js';
import { LoadingLine } from '../../../components/loading-line.js';
import { LoadFailure } from '../../../components/query-state.js';

const loadStripeModule = () => import('./stripe-card-field.js');
const StripeCardField = lazy(() => loadStripeModule().then((module) => ({ default: module.StripeCardField })));

/** The configuration error of SET-CARDS-6: no publishable key, so no way to retry. */
export const MISSING_KEY_TEXT = 'Card payments are not configured: the payment provider’s publishable key is missing.';

function Loading() {
  return <LoadingLine sx={{ py: 2 }}>Loading the card field...</LoadingLine>;
}

/** Stripe.js, loaded when the dialog opens; a failure offers "Try again". */
function StripeField({
  config,
  collector,
  disabled,
}: {
  config: BillingConfig;
  collector: RefObject<CardCollector | null>;
  disabled: boolean;
}) {
  const key = config.publishable_key;
  const stripe = useQuery({
    queryKey: ['stripe-js', key],
    queryFn: async () => {
      const { loadStripeOnce } = await loadStripeModule();
      const loaded = await loadStripeOnce(key!);
      if (!loaded) throw new Error('Stripe.js could not be loaded');
      return loaded;
    },
    enabled: key !== null,
    staleTime: Infinity,
    retry: false,
    meta: { errorToast: false },
  });
  if (key === null) return <Alert severity="error">{MISSING_KEY_TEXT}</Alert>;
  if (stripe.isError) {
    return (
      <LoadFailure onRetry={() => void stripe.refetch()} retrying={stripe.isFetching}>
        The card field could not be loaded.
      </LoadFailure>
    );
  }
  if (!stripe.data) return <Loading />;
  return (
    <Suspense fallback={<Loading />}>
      <StripeCardField ref={collector} stripe={stripe.data} disabled={disabled} />
    </Suspense>
  );
}

/**
 * Add Payment Method (SET-CARDS-3): the provider's card field — Stripe Elements when Stripe
 * is live, the sandbox's own otherwise — and "Make this my default payment method".
 */
export function AddPaymentMethodDialog({
  open,
  onClose,
  firstCard,
}: {
  open: boolean;
  onClose: () => void;
  firstCard: boolean;
}) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <AddPaymentMethodForm titleId={titleId} onClose={onClose} firstCard={firstCard} />
    </Dialog>
  );
}

function AddPaymentMethodForm({
  titleId,
  onClose,
  firstCard,
}: {
  titleId: string;
  onClose: () => void;
  firstCard: boolean;
}) {
  const config = useQuery(billingConfigQueryOptions());
  const add = useAddPaymentMethod();
  const collector = useRef<CardCollector | null>(null);
  const [makeDefault, setMakeDefault] = useState(firstCard);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string>();

  const save = async () => {
    if (!collector.current) return;
    setFailure(undefined);
    setSaving(true);
    try {
      const providerId = await collector.current.createPaymentMethod();
      await add.mutateAsync({ provider_payment_method_id: providerId, is_default: makeDefault });
      showToast('Payment method added successfully', 'success');
      onClose();
    } catch (error) {
      // A field problem is shown at the field; anything else here, with the way to try again.
      if (!(error instanceof CardInputError))
        setFailure(`${billingMessages.addPaymentMethodFailed}: ${errorText(error)}`);
    } finally {
      setSaving(false);
    }
  };

  let field: ReactNode;
  if (config.isPending) field = <Loading />;
  else if (config.isError) {
    field = (
      <LoadFailure onRetry={() => void config.refetch()} retrying={config.isFetching}>
        The card field could not be loaded.
      </LoadFailure>
    );
  } else if (config.data.provider === 'stripe') {
    field = <StripeField config={config.data} collector={collector} disabled={saving} />;
  } else {
    field = <SandboxCardField ref={collector} disabled={saving} />;
  }
  const ready =
    config.data !== undefined && (config.data.provider === 'sandbox' || config.data.publishable_key !== null);

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <DialogTitle id={titleId}>Add Payment Method</DialogTitle>
      <DialogContent>
        <Box sx={{ display: 'grid', gap: 2, pt: 1 }}>
          {failure ? (
            <LoadFailure onRetry={() => void save()} retrying={saving}>
              {failure}
            </LoadFailure>
          ) : undefined}
          {field}
          <FormControlLabel
            control={<Checkbox checked={makeDefault} onChange={(event) => setMakeDefault(event.target.checked)} />}
            label="Make this my default payment method"
          />
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={saving}>
          Cancel
        </Button>
        <Button type="submit" variant="contained" loading={saving} disabled={!ready}>
          Add Card
        </Button>
      </DialogActions>
    </Box>
  );
}
