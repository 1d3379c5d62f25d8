// Studio's part of the demo seed (../seed-demo.ts): one tenant's extract and the report on it.

/** The demo tenant that gets Studio's extract and its report (a hospital network: price data fits it). */
export const STUDIO_TENANT = 'Acme Health';
/** The extract's name: its table's name in the tenant's `extract` source. */
export const STUDIO_EXTRACT = 'acme_rates';
export const STUDIO_REPORT_SLUG = 'acme-rates-by-payer';

/**
 * A small price file as a hospital network publishes it: every hospital's negotiated rate for six
 * services with five payers' three plan types (360 rows), plus cash price and gross charge. The
 * numbers come from a fixed-seed generator, so every run writes the same file.
 */
export function acmeRatesCsv(): string {
  const services = [
    ['99213', 'Office visit, established patient, 20 to 29 minutes', 95],
    ['99214', 'Office visit, established patient, 30 to 39 minutes', 140],
    ['70450', 'CT scan of the head, without contrast', 420],
    ['73721', 'MRI of a leg joint, without contrast', 780],
    ['80053', 'Comprehensive metabolic panel', 28],
    ['45378', 'Colonoscopy, diagnostic', 1050],
  ] as const;
  const payers = [
    ['Aetna', 1.05],
    ['Blue Cross Blue Shield', 0.95],
    ['Cigna', 1.1],
    ['UnitedHealthcare', 1],
    ['Medicaid', 0.6],
  ] as const;
  const hospitals = [
    ['Acme General Hospital', 1.15],
    ['Acme Riverside Medical Center', 1],
    ['Acme Northside Clinic', 0.85],
    ['Acme Valley Hospital', 0.95],
  ] as const;
  const plans = [
    ['PPO', 1.1],
    ['HMO', 0.9],
    ['EPO', 1],
  ] as const;
  let state = 20_261_127;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const money = (value: number) => value.toFixed(2);
  const lines = ['hospital,billing_code,service,payer,plan_type,negotiated_rate,cash_price,gross_charge'];
  for (const [hospital, hospitalFactor] of hospitals) {
    for (const [code, service, base] of services) {
      const gross = base * hospitalFactor * 2.6;
      const cash = base * hospitalFactor * 1.2;
      for (const [payer, payerFactor] of payers) {
        for (const [plan, planFactor] of plans) {
          const rate = base * hospitalFactor * payerFactor * planFactor * (0.85 + 0.3 * random());
          lines.push([hospital, code, `"${service}"`, payer, plan, money(rate), money(cash), money(gross)].join(','));
        }
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

export const STUDIO_REPORT = `title: Acme Health rates by payer
description: >-
  The negotiated rates in Acme Health's uploaded price file: the typical rate for one service, how
  the payers compare, and every rate by hospital.
source: extract
params:
  code:
    label: Billing code
    type: select
    options: SELECT DISTINCT billing_code FROM ${STUDIO_EXTRACT} ORDER BY billing_code
    default: "99213"
blocks:
  - id: median_rate
    title: Median negotiated rate
    kpi:
      sql: SELECT median(negotiated_rate) AS median_rate FROM ${STUDIO_EXTRACT} WHERE billing_code = :code
      value: median_rate
      format: currency
  - id: cash_price
    title: Median cash price
    kpi:
      sql: SELECT median(cash_price) AS cash_price FROM ${STUDIO_EXTRACT} WHERE billing_code = :code
      value: cash_price
      format: currency
  - id: by_payer
    title: Median negotiated rate by payer
    chart:
      sql: >-
        SELECT payer, median(negotiated_rate) AS median_rate FROM ${STUDIO_EXTRACT}
        WHERE billing_code = :code GROUP BY payer ORDER BY median_rate DESC
      spec:
        mark: { type: bar, tooltip: true }
        encoding:
          y: { field: payer, type: nominal, sort: "-x", title: Payer }
          x: { field: median_rate, type: quantitative, title: Median negotiated rate, axis: { format: "$,.0f" } }
  - id: rates
    title: Every rate for the code
    table:
      sql: >-
        SELECT hospital, payer, plan_type, negotiated_rate, cash_price, gross_charge FROM ${STUDIO_EXTRACT}
        WHERE billing_code = :code ORDER BY hospital, payer, plan_type
      page_size: 20
`;
