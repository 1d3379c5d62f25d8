import { billingMessages, passesLuhn } from '@dataplatform/contract';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useImperativeHandle, useState } from 'react';
import { createSandboxPaymentMethod } from '../api/payment-methods.js';
import { CardInputError, type CardFieldProps } from './card-collector.js';

type Field = 'number' | 'expiry' | 'cvc';

/** The brand a number starts like, as a card field shows it while you type. */
export function cardBrand(digits: string): string | undefined {
  if (/^4/.test(digits)) return 'Visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'Mastercard';
  if (/^3[47]/.test(digits)) return 'American Express';
  if (/^6(011|5)/.test(digits)) return 'Discover';
  return undefined;
}

/** "4242424242424242" → "4242 4242 4242 4242" (American Express: 4-6-5). */
export function formatCardNumber(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 19);
  const groups = /^3[47]/.test(digits) ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const parts: string[] = [];
  let at = 0;
  for (const size of groups) {
    if (at >= digits.length) break;
    parts.push(digits.slice(at, at + size));
    at += size;
  }
  return parts.join(' ');
}

/** "122" → "12 / 2", "1234" → "12 / 34". */
export function formatExpiry(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  return digits.length <= 2 ? digits : `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}

/** Why a card cannot be used, field by field, checked in the browser before anything is sent. */
export function cardProblems(
  input: { number: string; expiry: string; cvc: string },
  now = new Date(),
): Partial<Record<Field, string>> {
  const problems: Partial<Record<Field, string>> = {};
  const digits = input.number.replace(/\D/g, '');
  if (!passesLuhn(digits)) problems.number = billingMessages.cardNumberInvalid;
  const [month, year] = input.expiry.replace(/\s/g, '').split('/').map(Number);
  if (!month || month < 1 || month > 12) problems.expiry = billingMessages.cardExpMonthInvalid;
  else if (
    year === undefined ||
    Number.isNaN(year) ||
    String(year).length > 2 ||
    input.expiry.replace(/\D/g, '').length !== 4
  )
    problems.expiry = billingMessages.cardExpYearInvalid;
  else {
    const fullYear = 2000 + year;
    if (fullYear < now.getFullYear() || (fullYear === now.getFullYear() && month < now.getMonth() + 1)) {
      problems.expiry = billingMessages.cardExpiryInvalid;
    }
  }
  if (!/^\d{3,4}$/.test(input.cvc)) problems.cvc = billingMessages.cardCvcInvalid;
  return problems;
}

/**
 * The offline sandbox's card field, behaving like Stripe's: formatted as typed, the brand shown,
 * checked in the browser, then sent to the sandbox the way Stripe.js sends a card to Stripe.
 */
export function SandboxCardField({ ref, disabled }: CardFieldProps) {
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});
  const digits = number.replace(/\D/g, '');
  const brand = cardBrand(digits);

  useImperativeHandle(ref, () => ({
    async createPaymentMethod() {
      const found = cardProblems({ number, expiry, cvc });
      setProblems(found);
      if (Object.keys(found).length > 0) throw new CardInputError(Object.values(found)[0]);
      const [month, year] = expiry.replace(/\s/g, '').split('/').map(Number);
      const created = await createSandboxPaymentMethod({
        number: digits,
        exp_month: month!,
        exp_year: 2000 + year!,
        cvc,
      });
      return created.id;
    },
  }));

  const check = (field: Field) => () => {
    const found = cardProblems({ number, expiry, cvc });
    setProblems((current) => ({ ...current, [field]: found[field] }));
  };

  return (
    // The number on a row of its own; expiry and CVC side by side where their labels fit whole.
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
      <TextField
        label="Card number"
        value={number}
        onChange={(event) => setNumber(formatCardNumber(event.target.value))}
        onBlur={check('number')}
        error={problems.number !== undefined}
        helperText={problems.number ?? (brand ? `Brand: ${brand}` : ' ')}
        disabled={disabled}
        autoComplete="cc-number"
        required
        sx={{ gridColumn: '1 / -1' }}
        slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 23 } }}
      />
      <TextField
        label="Expiry (MM/YY)"
        value={expiry}
        onChange={(event) => setExpiry(formatExpiry(event.target.value))}
        onBlur={check('expiry')}
        error={problems.expiry !== undefined}
        helperText={problems.expiry ?? ' '}
        disabled={disabled}
        autoComplete="cc-exp"
        placeholder="MM / YY"
        required
        slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 7 } }}
      />
      <TextField
        label="CVC"
        value={cvc}
        onChange={(event) => setCvc(event.target.value.replace(/\D/g, '').slice(0, 4))}
        onBlur={check('cvc')}
        error={problems.cvc !== undefined}
        helperText={problems.cvc ?? ' '}
        disabled={disabled}
        autoComplete="cc-csc"
        required
        slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 4 } }}
      />
      <Typography variant="caption" color="text.secondary" sx={{ gridColumn: '1 / -1' }}>
        Test mode: use 4242 4242 4242 4242 with any future date and any CVC.
      </Typography>
    </Box>
  );
}
