import type { BillingPeriod } from '@dataplatform/contract';

const MONTHS: Record<BillingPeriod, number> = { monthly: 1, annual: 12 };

/**
 * The end of a period that starts at `start`: the same day of the month one month (or year) later,
 * or the last day of that month when it is shorter (31 January + 1 month = 28 or 29 February).
 */
export function addBillingPeriod(start: Date, period: BillingPeriod): Date {
  const months = MONTHS[period];
  const targetMonthIndex = start.getUTCMonth() + months;
  const year = start.getUTCFullYear() + Math.floor(targetMonthIndex / 12);
  const month = targetMonthIndex % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(start.getUTCDate(), lastDay),
      start.getUTCHours(),
      start.getUTCMinutes(),
      start.getUTCSeconds(),
      start.getUTCMilliseconds(),
    ),
  );
}

export const stripeInterval = (period: BillingPeriod): 'month' | 'year' => (period === 'monthly' ? 'month' : 'year');

export function describePlan(plan: { name: string; billingPeriod: BillingPeriod }): string {
  return `${plan.name} (${plan.billingPeriod})`;
}
