/**
 * Money without floating point: amounts are integer minor units (cents) held in a bigint, read from
 * and written to decimal strings ("19.99"), the form the database (numeric) and the API use.
 */
export type Minor = bigint;

const DECIMAL = /^(-)?(\d+)(?:\.(\d{1,2}))?$/;

/** "19.99" → 1999n; "19.9" → 1990n; "19" → 1900n. More than two decimal places is refused. */
export function toMinor(decimal: string): Minor {
  const match = DECIMAL.exec(decimal.trim());
  if (!match) throw new RangeError(`Not a money amount: ${JSON.stringify(decimal)}`);
  const [, sign, whole, fraction = ''] = match;
  const minor = BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, '0'));
  return sign ? -minor : minor;
}

/** 1999n → "19.99"; always two decimal places. */
export function fromMinor(minor: Minor): string {
  const negative = minor < 0n;
  const absolute = negative ? -minor : minor;
  const whole = absolute / 100n;
  const fraction = (absolute % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** The integer a provider API wants (Stripe's `amount`); refuses amounts beyond safe integers. */
export function minorToNumber(minor: Minor): number {
  if (minor > BigInt(Number.MAX_SAFE_INTEGER) || minor < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError('Amount too large');
  }
  return Number(minor);
}

/** Normalises a decimal string to two places: "5" → "5.00", "0.1" → "0.10". */
export function normalizeDecimal(decimal: string): string {
  return fromMinor(toMinor(decimal));
}

export function addMoney(...amounts: string[]): string {
  return fromMinor(amounts.reduce((sum, amount) => sum + toMinor(amount), 0n));
}

export function multiplyMoney(amount: string, times: number): string {
  if (!Number.isSafeInteger(times)) throw new RangeError('Multiplier must be an integer');
  return fromMinor(toMinor(amount) * BigInt(times));
}
