import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { useImperativeHandle } from 'react';
import { PROVIDER_ERROR_TEXT, type CardFieldProps } from './card-collector.js';

/** Stripe.js, fetched from Stripe the first time a card dialog opens, once per key. */
const stripeByKey = new Map<string, Promise<Stripe | null>>();

export function loadStripeOnce(publishableKey: string): Promise<Stripe | null> {
  // Stripe.js from Stripe's own host, as Stripe requires; the page's CSP allows it when Stripe is live.
  let loading = stripeByKey.get(publishableKey);
  if (!loading) {
    loading = loadStripe(publishableKey);
    // A failed load (rejected, or no Stripe object) may be tried again ("Try again").
    const forget = () => stripeByKey.delete(publishableKey);
    loading.then((stripe) => (stripe ? undefined : forget()), forget);
    stripeByKey.set(publishableKey, loading);
  }
  return loading;
}

function StripeCardInput({ ref, disabled }: CardFieldProps) {
  const stripe = useStripe();
  const elements = useElements();
  const theme = useTheme();

  useImperativeHandle(ref, () => ({
    async createPaymentMethod() {
      const card = elements?.getElement(CardElement);
      if (!stripe || !card) throw new Error(PROVIDER_ERROR_TEXT);
      const { paymentMethod, error } = await stripe.createPaymentMethod({ type: 'card', card });
      if (error || !paymentMethod) throw new Error(error?.message || PROVIDER_ERROR_TEXT);
      return paymentMethod.id;
    },
  }));

  return (
    <Box
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1, px: 1.5, py: 2 }}
      role="group"
      aria-label="Card details"
    >
      <CardElement
        options={{
          disabled,
          style: { base: { color: theme.palette.text.primary, fontSize: '16px' } },
        }}
      />
    </Box>
  );
}

/** Stripe Elements' card field (loaded only with the card dialog, only when Stripe is live). */
export function StripeCardField({ stripe, ...props }: CardFieldProps & { stripe: Stripe }) {
  return (
    <Elements stripe={stripe}>
      <StripeCardInput {...props} />
    </Elements>
  );
}
