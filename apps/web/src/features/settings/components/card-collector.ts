import type { Ref } from 'react';

/**
 * A card field that turns what the person typed into the provider's payment method id, the way
 * Stripe.js's createPaymentMethod does. Stripe Elements and the offline sandbox field both give one,
 * so everything after it (saving the card, the default flag) is the same code.
 */
export interface CardCollector {
  /** Resolves to the provider's id ("pm_…"); rejects with a CardInputError or the provider's error. */
  createPaymentMethod(): Promise<string>;
}

export interface CardFieldProps {
  ref: Ref<CardCollector>;
  disabled: boolean;
}

/** What the person typed is not a usable card; the field shows why, beside the input. */
export class CardInputError extends Error {
  override name = 'CardInputError';
}

/** A provider error without a message (SET-CARDS-4). */
export const PROVIDER_ERROR_TEXT = 'An error occurred';
