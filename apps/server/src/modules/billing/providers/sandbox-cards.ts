/**
 * Stripe's test-mode card numbers and what each does. The sandbox keeps a card's outcome (not its
 * number): `declineOnAttach` cards fail the check when saved, like in Stripe; `failCharges` cards are
 * saved but every charge is declined.
 */
export interface TestCardBehaviour {
  brand: string;
  outcome: SandboxOutcome;
}

export type SandboxOutcome =
  'succeed' | 'card_declined' | 'insufficient_funds' | 'charge_fails' | 'expired_card' | 'incorrect_cvc';

export const DECLINE_MESSAGES: Record<Exclude<SandboxOutcome, 'succeed'>, { code: string; message: string }> = {
  card_declined: { code: 'generic_decline', message: 'Your card was declined.' },
  insufficient_funds: { code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  charge_fails: { code: 'generic_decline', message: 'Your card was declined.' },
  expired_card: { code: 'expired_card', message: 'Your card has expired.' },
  incorrect_cvc: { code: 'incorrect_cvc', message: "Your card's security code is incorrect." },
};

/** Outcomes that refuse the card as soon as it is attached to a customer. */
export const DECLINE_ON_ATTACH: ReadonlySet<SandboxOutcome> = new Set([
  'card_declined',
  'insufficient_funds',
  'expired_card',
  'incorrect_cvc',
]);

export const TEST_CARDS: Readonly<Record<string, TestCardBehaviour>> = {
  '4242424242424242': { brand: 'visa', outcome: 'succeed' },
  '4000056655665556': { brand: 'visa', outcome: 'succeed' },
  '5555555555554444': { brand: 'mastercard', outcome: 'succeed' },
  '2223003122003222': { brand: 'mastercard', outcome: 'succeed' },
  '378282246310005': { brand: 'amex', outcome: 'succeed' },
  '6011111111111117': { brand: 'discover', outcome: 'succeed' },
  '4000000000000002': { brand: 'visa', outcome: 'card_declined' },
  '4000000000009995': { brand: 'visa', outcome: 'insufficient_funds' },
  '4000000000000341': { brand: 'visa', outcome: 'charge_fails' },
  '4000000000000069': { brand: 'visa', outcome: 'expired_card' },
  '4000000000000127': { brand: 'visa', outcome: 'incorrect_cvc' },
};

/** Stripe's answer to a real card number in test mode. */
export const NOT_A_TEST_CARD =
  'Your card was declined. Your request was in test mode, but used a non test card. Use a test card number instead.';

/** Amex cards carry a four-digit security code, the others three. */
export function expectedCvcLength(brand: string): number {
  return brand === 'amex' ? 4 : 3;
}
