import { BUILT_IN_REPORT_HEADERS, type ReportDefinition } from '@dataplatform/contract';
import { parseDefinition } from './parsed-definitions.js';

/**
 * The reports every signed-in user sees, on the demo source (STUDIO-REPORT-6): they ship with the
 * server, are never rows of `reports`, and cannot be changed, deleted or restored. Their ids are
 * fixed so links to them last; their texts are checked by the same schema as anyone's.
 */

const payer = `title: Negotiated rates by payer
description: >-
  In-network rates the payers negotiated for one billing code: the typical rate, how widely each
  payer's rates spread, and the rates furthest from their payer's median.
source: demo
cache: 10m
params:
  code:
    label: Billing code
    type: select
    options: SELECT billing_code FROM billing_codes ORDER BY billing_code
    default: "99213"
  state:
    label: State (two letters, blank for all)
    type: text
    default: ""
blocks:
  - id: median_rate
    title: Median negotiated rate
    kpi:
      sql: >-
        SELECT median(negotiated_rate) AS median_rate FROM rates
        WHERE billing_code = :code AND (:state = '' OR state = upper(:state))
      value: median_rate
      format: currency
  - id: rate_count
    title: Rates on file
    kpi:
      sql: >-
        SELECT count(*) AS rates FROM rates
        WHERE billing_code = :code AND (:state = '' OR state = upper(:state))
      value: rates
      format: integer
  - id: payer_count
    title: Payers
    kpi:
      sql: >-
        SELECT count(DISTINCT payer) AS payers FROM rates
        WHERE billing_code = :code AND (:state = '' OR state = upper(:state))
      value: payers
      format: integer
  - id: median_by_payer
    title: Median rate by payer
    chart:
      sql: >-
        SELECT payer, median(negotiated_rate) AS median_rate, count(*) AS rates FROM rates
        WHERE billing_code = :code AND (:state = '' OR state = upper(:state))
        GROUP BY payer ORDER BY median_rate DESC
      spec:
        mark: { type: bar, tooltip: true }
        encoding:
          y: { field: payer, type: nominal, sort: "-x", title: Payer }
          x: { field: median_rate, type: quantitative, title: Median negotiated rate, axis: { format: "$,.0f" } }
          color: { value: "#2b6cb0" }
  - id: distribution
    title: Spread of rates by payer (10th to 90th percentile, box from 25th to 75th, tick at the median)
    chart:
      sql: >-
        SELECT payer,
               quantile_cont(negotiated_rate, 0.1) AS p10,
               quantile_cont(negotiated_rate, 0.25) AS p25,
               median(negotiated_rate) AS p50,
               quantile_cont(negotiated_rate, 0.75) AS p75,
               quantile_cont(negotiated_rate, 0.9) AS p90
        FROM rates
        WHERE billing_code = :code AND (:state = '' OR state = upper(:state))
        GROUP BY payer ORDER BY p50 DESC
      spec:
        encoding:
          y: { field: payer, type: nominal, sort: { field: p50, order: descending }, title: Payer }
        layer:
          - mark: { type: rule, color: "#718096" }
            encoding:
              x: { field: p10, type: quantitative, title: Negotiated rate, axis: { format: "$,.0f" } }
              x2: { field: p90 }
          - mark: { type: bar, size: 14, color: "#90cdf4" }
            encoding:
              x: { field: p25, type: quantitative }
              x2: { field: p75 }
          - mark: { type: tick, color: "#1a365d", thickness: 2, size: 14 }
            encoding:
              x: { field: p50, type: quantitative }
              tooltip:
                - { field: payer, type: nominal }
                - { field: p10, type: quantitative, format: "$,.2f", title: 10th percentile }
                - { field: p50, type: quantitative, format: "$,.2f", title: Median }
                - { field: p90, type: quantitative, format: "$,.2f", title: 90th percentile }
  - id: outliers
    title: Rates furthest from their payer's median
    table:
      sql: >-
        WITH medians AS (
          SELECT payer, median(negotiated_rate) AS payer_median FROM rates
          WHERE billing_code = :code AND (:state = '' OR state = upper(:state))
          GROUP BY payer
        )
        SELECT r.payer, r.plan_name, r.provider_group, r.npi, r.state, r.negotiated_type,
               round(r.negotiated_rate, 2) AS negotiated_rate,
               round(m.payer_median, 2) AS payer_median,
               round(r.negotiated_rate / m.payer_median, 2) AS times_median
        FROM rates AS r JOIN medians AS m ON m.payer = r.payer
        WHERE r.billing_code = :code AND (:state = '' OR r.state = upper(:state))
        ORDER BY abs(ln(r.negotiated_rate / m.payer_median)) DESC, r.npi, r.plan_name
      page_size: 25
  - id: about
    text: >-
      Rates come from the demo data set, generated in the shape of the payers' machine-readable
      in-network files. A rate twice its payer's median shows as **2.0** under *times median*.
`;

const hospitalPrices = `title: Hospital prices
description: >-
  What each hospital lists for one service: its gross charge, its discounted cash price, and the
  rates payers negotiated with it.
source: demo
cache: 10m
params:
  code:
    label: Billing code
    type: select
    options: SELECT DISTINCT billing_code FROM hospital_charges ORDER BY billing_code
    default: "70450"
blocks:
  - id: median_cash
    title: Median cash price
    kpi:
      sql: >-
        SELECT median(cash_price) AS median_cash FROM (
          SELECT hospital, max(cash_price) AS cash_price FROM hospital_charges
          WHERE billing_code = :code GROUP BY hospital
        ) AS per_hospital
      value: median_cash
      format: currency
  - id: median_negotiated
    title: Median negotiated charge
    kpi:
      sql: SELECT median(negotiated_charge) AS median_negotiated FROM hospital_charges WHERE billing_code = :code
      value: median_negotiated
      format: currency
  - id: cash_share
    title: Cash price as a share of the gross charge
    kpi:
      sql: >-
        SELECT sum(cash_price) / sum(gross_charge) AS share FROM (
          SELECT hospital, max(cash_price) AS cash_price, max(gross_charge) AS gross_charge
          FROM hospital_charges WHERE billing_code = :code GROUP BY hospital
        ) AS per_hospital
      value: share
      format: percent
  - id: prices_by_hospital
    title: Gross, cash and median negotiated price by hospital
    chart:
      sql: >-
        WITH per_hospital AS (
          SELECT hospital, max(gross_charge) AS gross, max(cash_price) AS cash,
                 median(negotiated_charge) AS negotiated
          FROM hospital_charges WHERE billing_code = :code GROUP BY hospital
        )
        SELECT hospital, 'Gross charge' AS price, gross AS amount FROM per_hospital
        UNION ALL SELECT hospital, 'Cash price', cash FROM per_hospital
        UNION ALL SELECT hospital, 'Median negotiated', negotiated FROM per_hospital
      spec:
        mark: { type: bar, tooltip: true }
        height: { step: 8 }
        encoding:
          y: { field: hospital, type: nominal, title: Hospital }
          yOffset: { field: price }
          x: { field: amount, type: quantitative, title: Price, axis: { format: "$,.0f" } }
          color:
            field: price
            type: nominal
            title: Price
            scale: { domain: [Gross charge, Cash price, Median negotiated], range: ["#c53030", "#2f855a", "#2b6cb0"] }
  - id: cash_vs_negotiated
    title: Cash price against the median negotiated charge
    chart:
      sql: >-
        SELECT hospital, state, max(cash_price) AS cash, median(negotiated_charge) AS negotiated
        FROM hospital_charges WHERE billing_code = :code GROUP BY hospital, state
      spec:
        mark: { type: point, filled: true, size: 60, tooltip: true }
        encoding:
          x: { field: negotiated, type: quantitative, title: Median negotiated charge, axis: { format: "$,.0f" } }
          y: { field: cash, type: quantitative, title: Cash price, axis: { format: "$,.0f" } }
          color: { field: state, type: nominal, title: State }
  - id: by_hospital
    title: Prices by hospital
    table:
      sql: >-
        SELECT hospital, city, state,
               round(max(gross_charge), 2) AS gross_charge,
               round(max(cash_price), 2) AS cash_price,
               round(min(min_negotiated), 2) AS min_negotiated,
               round(median(negotiated_charge), 2) AS median_negotiated,
               round(max(max_negotiated), 2) AS max_negotiated,
               round(max(cash_price) / max(gross_charge), 3) AS cash_share_of_gross
        FROM hospital_charges WHERE billing_code = :code
        GROUP BY hospital, city, state ORDER BY gross_charge DESC, hospital
      page_size: 20
  - id: about
    text: >-
      Hospitals publish a *gross charge* (the list price), a *discounted cash price* and the
      charges they negotiated with each payer, with the lowest and highest of those. The figures
      here are the demo data set's.
`;

const feeSchedule = `title: Physician fee schedule by locality
description: >-
  The allowed amount of one service in every payment locality, computed from its relative values,
  the locality's cost indices and the conversion factor.
source: demo
cache: 1h
params:
  code:
    label: Billing code
    type: select
    options: SELECT billing_code FROM fee_schedule ORDER BY billing_code
    default: "99214"
blocks:
  - id: national_amount
    title: National allowed amount (indices of 1)
    kpi:
      sql: >-
        SELECT (work_rvu + pe_rvu + mp_rvu) * conversion_factor AS allowed
        FROM fee_schedule WHERE billing_code = :code
      value: allowed
      format: currency
  - id: total_rvu
    title: Total relative value units
    kpi:
      sql: SELECT work_rvu + pe_rvu + mp_rvu AS total_rvu FROM fee_schedule WHERE billing_code = :code
      value: total_rvu
      format: number
  - id: spread
    title: Highest locality against the lowest
    kpi:
      sql: >-
        SELECT max(allowed) / min(allowed) AS spread FROM (
          SELECT (f.work_rvu * l.work_gpci + f.pe_rvu * l.pe_gpci + f.mp_rvu * l.mp_gpci) * f.conversion_factor AS allowed
          FROM fee_schedule AS f CROSS JOIN localities AS l WHERE f.billing_code = :code
        ) AS amounts
      value: spread
      format: number
  - id: by_locality
    title: Allowed amount by locality
    chart:
      sql: >-
        SELECT l.locality_name, l.state,
               (f.work_rvu * l.work_gpci + f.pe_rvu * l.pe_gpci + f.mp_rvu * l.mp_gpci) * f.conversion_factor AS allowed
        FROM fee_schedule AS f CROSS JOIN localities AS l WHERE f.billing_code = :code
      spec:
        mark: { type: bar, tooltip: true }
        height: { step: 12 }
        encoding:
          y: { field: locality_name, type: nominal, sort: "-x", title: Locality }
          x: { field: allowed, type: quantitative, title: Allowed amount, axis: { format: "$,.2f" } }
          color: { field: state, type: nominal, title: State, legend: null }
  - id: components
    title: What the amount is made of, by locality
    chart:
      sql: >-
        SELECT l.locality_name, 'Work' AS component, f.work_rvu * l.work_gpci * f.conversion_factor AS amount
        FROM fee_schedule AS f CROSS JOIN localities AS l WHERE f.billing_code = :code
        UNION ALL
        SELECT l.locality_name, 'Practice expense', f.pe_rvu * l.pe_gpci * f.conversion_factor
        FROM fee_schedule AS f CROSS JOIN localities AS l WHERE f.billing_code = :code
        UNION ALL
        SELECT l.locality_name, 'Malpractice', f.mp_rvu * l.mp_gpci * f.conversion_factor
        FROM fee_schedule AS f CROSS JOIN localities AS l WHERE f.billing_code = :code
      spec:
        mark: { type: bar, tooltip: true }
        height: { step: 12 }
        encoding:
          y: { field: locality_name, type: nominal, sort: "-x", title: Locality }
          x: { field: amount, type: quantitative, stack: zero, title: Allowed amount, axis: { format: "$,.2f" } }
          color: { field: component, type: nominal, title: Component }
  - id: localities
    title: Allowed amount in each locality
    table:
      sql: >-
        SELECT l.locality, l.locality_name, l.state, l.work_gpci, l.pe_gpci, l.mp_gpci,
               round((f.work_rvu * l.work_gpci + f.pe_rvu * l.pe_gpci + f.mp_rvu * l.mp_gpci) * f.conversion_factor, 2) AS allowed_amount,
               round((f.work_rvu * l.work_gpci + f.pe_rvu * l.pe_gpci + f.mp_rvu * l.mp_gpci)
                     / (f.work_rvu + f.pe_rvu + f.mp_rvu), 3) AS against_national
        FROM fee_schedule AS f CROSS JOIN localities AS l WHERE f.billing_code = :code
        ORDER BY allowed_amount DESC, l.locality
      page_size: 25
  - id: formula
    text: >-
      **Allowed amount** = (work RVU × work GPCI + practice-expense RVU × PE GPCI + malpractice RVU
      × MP GPCI) × conversion factor. Relative values and indices are the demo data set's.
`;

export interface BuiltInReport {
  id: string;
  slug: string;
  text: string;
  definition: ReportDefinition;
}

/** When the built-in texts last changed: their one version's time. */
export const BUILT_IN_REPORTS_UPDATED_AT = new Date('2026-11-26T00:00:00Z');

function builtIn(id: string, slug: keyof typeof BUILT_IN_REPORT_HEADERS, text: string): BuiltInReport {
  // Frozen like every shared definition (parsed-definitions.ts).
  const parsed = parseDefinition(text);
  // A test parses them too; failing here means a broken text never reaches a user.
  if (!parsed.ok) throw new Error(`built-in report ${slug} is invalid: ${JSON.stringify(parsed.problems)}`);
  // The web app's showcase frame draws the header from the contract before the report arrives.
  const { title, description, source } = parsed.definition;
  const header = BUILT_IN_REPORT_HEADERS[slug];
  if (title !== header.title || description !== header.description || source !== header.source) {
    throw new Error(`built-in report ${slug}: its title, description or source differs from BUILT_IN_REPORT_HEADERS`);
  }
  return { id, slug, text, definition: parsed.definition };
}

/** In the order lists show them: first, before any tenant's own. */
export const BUILT_IN_REPORTS: readonly BuiltInReport[] = [
  builtIn('5d0d1e00-0000-4000-8000-000000000001', 'payer', payer),
  builtIn('5d0d1e00-0000-4000-8000-000000000002', 'hospital-prices', hospitalPrices),
  builtIn('5d0d1e00-0000-4000-8000-000000000003', 'cms-fs', feeSchedule),
];
