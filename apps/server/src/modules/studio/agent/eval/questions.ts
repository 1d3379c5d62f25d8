import type { AgentModelAnswer } from '@dataplatform/contract';

/*
 * The agent's evaluation set (issue 56), as the text-to-SQL field measures (Spider, BIRD): questions
 * over the demo source, easy to hard, each with its expected result computed by hand-written SQL,
 * or `reply` where the right answer is words (a "why", a forecast). `reference` is an answer a good
 * model would give; the harness's own test replays it through a scripted model, so the set, the
 * compiler and the comparison are checked against each other on every run.
 */

export interface EvalQuestion {
  id: string;
  level: 'easy' | 'medium' | 'hard';
  question: string;
  /** The hand-written SQL whose result the answer must equal, or `reply` when words are right. */
  expected: { sql: string } | 'reply';
  reference: AgentModelAnswer;
}

type PlanParts = Omit<Extract<AgentModelAnswer, { kind: 'plan' }>, 'kind' | 'source'>;

const plan = (parts: Partial<PlanParts> & Pick<PlanParts, 'title' | 'table' | 'chart'>): AgentModelAnswer => ({
  kind: 'plan',
  source: 'demo',
  measures: [],
  dimensions: [],
  filters: [],
  sort: [],
  limit: null,
  ...parts,
});

const sql = (title: string, text: string, chart: 'table' | 'kpi' | 'bar' = 'table'): AgentModelAnswer => ({
  kind: 'sql',
  title,
  source: 'demo',
  sql: text,
  chart,
});

const reply = (text: string): AgentModelAnswer => ({ kind: 'reply', text });

const count = { agg: 'count', column: null, as: 'rates' } as const;

export const EVAL_QUESTIONS: EvalQuestion[] = [
  {
    id: 'rates-on-file',
    level: 'easy',
    question: 'How many negotiated rates are on file?',
    expected: { sql: 'SELECT count(*) FROM rates' },
    reference: plan({ title: 'Rates on file', table: 'rates', measures: [count], chart: 'kpi' }),
  },
  {
    id: 'payers',
    level: 'easy',
    question: 'How many payers are there?',
    expected: { sql: 'SELECT count(DISTINCT payer) FROM rates' },
    reference: plan({
      title: 'Payers',
      table: 'rates',
      measures: [{ agg: 'count_distinct', column: 'payer', as: 'payers' }],
      chart: 'kpi',
    }),
  },
  {
    id: 'median-rate',
    level: 'easy',
    question: 'What is the median negotiated rate?',
    expected: { sql: 'SELECT median(negotiated_rate) FROM rates' },
    reference: plan({
      title: 'Median rate',
      table: 'rates',
      measures: [{ agg: 'median', column: 'negotiated_rate', as: 'median_rate' }],
      chart: 'kpi',
    }),
  },
  {
    id: 'avg-99213',
    level: 'easy',
    question: 'What is the average negotiated rate for billing code 99213?',
    expected: { sql: "SELECT avg(negotiated_rate) FROM rates WHERE billing_code = '99213'" },
    reference: plan({
      title: 'Average rate for 99213',
      table: 'rates',
      measures: [{ agg: 'avg', column: 'negotiated_rate', as: 'avg_rate' }],
      filters: [{ column: 'billing_code', op: '=', value: '99213' }],
      chart: 'kpi',
    }),
  },
  {
    id: 'institutional',
    level: 'easy',
    question: 'How many institutional rates are there?',
    expected: { sql: "SELECT count(*) FROM rates WHERE billing_class = 'institutional'" },
    reference: plan({
      title: 'Institutional rates',
      table: 'rates',
      measures: [count],
      filters: [{ column: 'billing_class', op: '=', value: 'institutional' }],
      chart: 'kpi',
    }),
  },
  {
    id: 'work-rvu-total',
    level: 'easy',
    question: 'What is the total work RVU across the fee schedule?',
    expected: { sql: 'SELECT sum(work_rvu) FROM fee_schedule' },
    reference: plan({
      title: 'Total work RVU',
      table: 'fee_schedule',
      measures: [{ agg: 'sum', column: 'work_rvu', as: 'work_rvu' }],
      chart: 'kpi',
    }),
  },
  {
    id: 'rates-by-payer',
    level: 'easy',
    question: 'How many rates does each payer have?',
    expected: { sql: 'SELECT payer, count(*) FROM rates GROUP BY payer' },
    reference: plan({
      title: 'Rates by payer',
      table: 'rates',
      measures: [count],
      dimensions: [{ column: 'payer', grain: null }],
      chart: 'bar',
    }),
  },
  {
    id: 'codes-by-category',
    level: 'easy',
    question: 'How many billing codes are in each category?',
    expected: { sql: 'SELECT category, count(*) FROM billing_codes GROUP BY category' },
    reference: plan({
      title: 'Codes by category',
      table: 'billing_codes',
      measures: [{ agg: 'count', column: null, as: 'codes' }],
      dimensions: [{ column: 'category', grain: null }],
      chart: 'bar',
    }),
  },
  {
    id: 'rates-by-negotiated-type',
    level: 'easy',
    question: 'Count the rates by negotiated type.',
    expected: { sql: 'SELECT negotiated_type, count(*) FROM rates GROUP BY 1' },
    reference: plan({
      title: 'Rates by negotiated type',
      table: 'rates',
      measures: [count],
      dimensions: [{ column: 'negotiated_type', grain: null }],
      chart: 'bar',
    }),
  },
  {
    id: 'median-99213-by-payer',
    level: 'medium',
    question: 'Median negotiated rate by payer for code 99213',
    expected: {
      sql: "SELECT payer, median(negotiated_rate) FROM rates WHERE billing_code = '99213' GROUP BY payer",
    },
    reference: plan({
      title: 'Median rate for 99213 by payer',
      table: 'rates',
      measures: [{ agg: 'median', column: 'negotiated_rate', as: 'median_rate' }],
      dimensions: [{ column: 'payer', grain: null }],
      filters: [{ column: 'billing_code', op: '=', value: '99213' }],
      chart: 'bar',
    }),
  },
  {
    id: 'avg-by-plan-type',
    level: 'medium',
    question: 'What is the average negotiated rate by plan type?',
    expected: { sql: 'SELECT plan_type, avg(negotiated_rate) FROM rates GROUP BY plan_type' },
    reference: plan({
      title: 'Average rate by plan type',
      table: 'rates',
      measures: [{ agg: 'avg', column: 'negotiated_rate', as: 'avg_rate' }],
      dimensions: [{ column: 'plan_type', grain: null }],
      chart: 'bar',
    }),
  },
  {
    id: 'hmo-ca',
    level: 'medium',
    question: 'Average rate for HMO plans in California',
    expected: { sql: "SELECT avg(negotiated_rate) FROM rates WHERE plan_type = 'HMO' AND state = 'CA'" },
    reference: plan({
      title: 'Average HMO rate in CA',
      table: 'rates',
      measures: [{ agg: 'avg', column: 'negotiated_rate', as: 'avg_rate' }],
      filters: [
        { column: 'plan_type', op: '=', value: 'HMO' },
        { column: 'state', op: '=', value: 'CA' },
      ],
      chart: 'kpi',
    }),
  },
  {
    id: 'min-max-27447',
    level: 'medium',
    question: 'The lowest and highest negotiated rate for a total knee replacement (27447)',
    expected: { sql: "SELECT min(negotiated_rate), max(negotiated_rate) FROM rates WHERE billing_code = '27447'" },
    reference: plan({
      title: 'Range of rates for 27447',
      table: 'rates',
      measures: [
        { agg: 'min', column: 'negotiated_rate', as: 'lowest' },
        { agg: 'max', column: 'negotiated_rate', as: 'highest' },
      ],
      filters: [{ column: 'billing_code', op: '=', value: '27447' }],
      chart: 'table',
    }),
  },
  {
    id: 'expiring-by-month-2026',
    level: 'medium',
    question: 'How many rates expire each month of 2026?',
    expected: {
      sql: "SELECT date_trunc('month', expiration_date), count(*) FROM rates WHERE expiration_date BETWEEN DATE '2026-01-01' AND DATE '2026-12-31' GROUP BY 1",
    },
    reference: plan({
      title: 'Rates expiring by month, 2026',
      table: 'rates',
      measures: [count],
      dimensions: [{ column: 'expiration_date', grain: 'month' }],
      filters: [{ column: 'expiration_date', op: 'between', value: ['2026-01-01', '2026-12-31'] }],
      chart: 'line',
    }),
  },
  {
    id: 'expiring-by-quarter',
    level: 'medium',
    question: 'Rates expiring per quarter',
    expected: { sql: "SELECT date_trunc('quarter', expiration_date), count(*) FROM rates GROUP BY 1" },
    reference: plan({
      title: 'Rates expiring by quarter',
      table: 'rates',
      measures: [count],
      dimensions: [{ column: 'expiration_date', grain: 'quarter' }],
      chart: 'line',
    }),
  },
  {
    id: 'expiring-by-year',
    level: 'medium',
    question: 'Rates expiring per year, with their median',
    expected: {
      sql: "SELECT date_trunc('year', expiration_date), count(*), median(negotiated_rate) FROM rates GROUP BY 1",
    },
    reference: plan({
      title: 'Rates expiring by year',
      table: 'rates',
      measures: [count, { agg: 'median', column: 'negotiated_rate', as: 'median_rate' }],
      dimensions: [{ column: 'expiration_date', grain: 'year' }],
      chart: 'table',
    }),
  },
  {
    id: 'aetna-or-cigna',
    level: 'medium',
    question: 'Rates of Aetna and Cigna, counted by payer',
    expected: { sql: "SELECT payer, count(*) FROM rates WHERE payer IN ('Aetna', 'Cigna') GROUP BY payer" },
    reference: plan({
      title: 'Aetna and Cigna rates',
      table: 'rates',
      measures: [count],
      dimensions: [{ column: 'payer', grain: null }],
      filters: [{ column: 'payer', op: 'in', value: ['Aetna', 'Cigna'] }],
      chart: 'bar',
    }),
  },
  {
    id: 'not-kaiser',
    level: 'medium',
    question: 'How many rates are not from Kaiser?',
    expected: { sql: "SELECT count(*) FROM rates WHERE payer <> 'Kaiser'" },
    reference: plan({
      title: 'Rates not from Kaiser',
      table: 'rates',
      measures: [count],
      filters: [{ column: 'payer', op: '!=', value: 'Kaiser' }],
      chart: 'kpi',
    }),
  },
  {
    id: 'premier-plans',
    level: 'medium',
    question: 'How many rates are on plans whose name mentions Premier?',
    expected: { sql: "SELECT count(*) FROM rates WHERE plan_name LIKE '%Premier%'" },
    reference: plan({
      title: 'Rates on Premier plans',
      table: 'rates',
      measures: [count],
      filters: [{ column: 'plan_name', op: 'contains', value: 'premier' }],
      chart: 'kpi',
    }),
  },
  {
    id: 'hospitals-per-state',
    level: 'medium',
    question: 'How many hospitals are there in each state?',
    expected: { sql: 'SELECT state, count(DISTINCT hospital) FROM hospital_charges GROUP BY state' },
    reference: plan({
      title: 'Hospitals by state',
      table: 'hospital_charges',
      measures: [{ agg: 'count_distinct', column: 'hospital', as: 'hospitals' }],
      dimensions: [{ column: 'state', grain: null }],
      chart: 'table',
    }),
  },
  {
    id: 'cash-by-payer',
    level: 'medium',
    question: 'Average cash price by payer in the hospital charges',
    expected: { sql: 'SELECT payer, avg(cash_price) FROM hospital_charges GROUP BY payer' },
    reference: plan({
      title: 'Average cash price by payer',
      table: 'hospital_charges',
      measures: [{ agg: 'avg', column: 'cash_price', as: 'avg_cash_price' }],
      dimensions: [{ column: 'payer', grain: null }],
      chart: 'bar',
    }),
  },
  {
    id: 'gpci-by-state',
    level: 'medium',
    question: 'Work GPCI of each state',
    expected: { sql: 'SELECT state, avg(work_gpci) FROM localities GROUP BY state' },
    reference: plan({
      title: 'Work GPCI by state',
      table: 'localities',
      measures: [{ agg: 'avg', column: 'work_gpci', as: 'work_gpci' }],
      dimensions: [{ column: 'state', grain: null }],
      chart: 'table',
    }),
  },
  {
    id: 'payer-plan-type',
    level: 'medium',
    question: 'Rates by payer and plan type',
    expected: { sql: 'SELECT payer, plan_type, count(*) FROM rates GROUP BY 1, 2' },
    reference: plan({
      title: 'Rates by payer and plan type',
      table: 'rates',
      measures: [count],
      dimensions: [
        { column: 'payer', grain: null },
        { column: 'plan_type', grain: null },
      ],
      chart: 'bar',
    }),
  },
  {
    id: 'top5-states-total',
    level: 'hard',
    question: 'Which five states have the highest total negotiated rates?',
    expected: {
      sql: 'SELECT state, sum(negotiated_rate) AS total FROM rates GROUP BY state ORDER BY total DESC LIMIT 5',
    },
    reference: plan({
      title: 'Top five states by total rate',
      table: 'rates',
      measures: [{ agg: 'sum', column: 'negotiated_rate', as: 'total' }],
      dimensions: [{ column: 'state', grain: null }],
      sort: [{ by: 'total', direction: 'desc' }],
      limit: 5,
      chart: 'bar',
    }),
  },
  {
    id: 'top5-payers-avg',
    level: 'hard',
    question: 'The five payers with the highest average rate',
    expected: {
      sql: 'SELECT payer, avg(negotiated_rate) AS a FROM rates GROUP BY payer ORDER BY a DESC LIMIT 5',
    },
    reference: plan({
      title: 'Top five payers by average rate',
      table: 'rates',
      measures: [{ agg: 'avg', column: 'negotiated_rate', as: 'avg_rate' }],
      dimensions: [{ column: 'payer', grain: null }],
      sort: [{ by: 'avg_rate', direction: 'desc' }],
      limit: 5,
      chart: 'bar',
    }),
  },
  {
    id: 'top5-hospitals-gross',
    level: 'hard',
    question: 'Top 5 hospitals by average gross charge',
    expected: {
      sql: 'SELECT hospital, avg(gross_charge) AS g FROM hospital_charges GROUP BY hospital ORDER BY g DESC LIMIT 5',
    },
    reference: plan({
      title: 'Top five hospitals by gross charge',
      table: 'hospital_charges',
      measures: [{ agg: 'avg', column: 'gross_charge', as: 'avg_gross' }],
      dimensions: [{ column: 'hospital', grain: null }],
      sort: [{ by: 'avg_gross', direction: 'desc' }],
      limit: 5,
      chart: 'bar',
    }),
  },
  {
    id: 'bottom3-codes-median',
    level: 'hard',
    question: 'Which three billing codes have the lowest median rate among Evaluation visits in New York?',
    expected: {
      sql: "SELECT r.billing_code, median(r.negotiated_rate) AS m FROM rates r WHERE r.state = 'NY' AND r.billing_code IN (SELECT billing_code FROM billing_codes WHERE category = 'Evaluation') GROUP BY 1 ORDER BY m ASC LIMIT 3",
    },
    reference: sql(
      'Lowest median Evaluation codes in NY',
      "SELECT r.billing_code, median(r.negotiated_rate) AS median_rate FROM rates r JOIN billing_codes c USING (billing_code) WHERE r.state = 'NY' AND c.category = 'Evaluation' GROUP BY 1 ORDER BY median_rate LIMIT 3",
    ),
  },
  {
    id: 'share-institutional',
    level: 'hard',
    question: 'What share of rates are institutional?',
    expected: { sql: "SELECT count(*) FILTER (WHERE billing_class = 'institutional') * 1.0 / count(*) FROM rates" },
    reference: sql(
      'Share of institutional rates',
      "SELECT avg(CASE WHEN billing_class = 'institutional' THEN 1.0 ELSE 0 END) AS share FROM rates",
      'kpi',
    ),
  },
  {
    id: 'discount-by-state',
    level: 'hard',
    question: 'By state, how does the average negotiated charge compare with the average gross charge (as a ratio)?',
    expected: { sql: 'SELECT state, avg(negotiated_charge) / avg(gross_charge) FROM hospital_charges GROUP BY state' },
    reference: sql(
      'Negotiated to gross charge by state',
      'SELECT state, avg(negotiated_charge) / avg(gross_charge) AS ratio FROM hospital_charges GROUP BY state',
    ),
  },
  {
    id: 'categories-over-5',
    level: 'hard',
    question: 'Which categories have more than five billing codes?',
    expected: { sql: 'SELECT category, count(*) FROM billing_codes GROUP BY category HAVING count(*) > 5' },
    reference: sql(
      'Categories with more than five codes',
      'SELECT category, count(*) AS codes FROM billing_codes GROUP BY category HAVING count(*) > 5',
    ),
  },
  {
    id: 'imaging-median-by-code',
    level: 'hard',
    question: 'Median rate of each imaging code',
    expected: {
      sql: "SELECT billing_code, median(negotiated_rate) FROM rates WHERE billing_code IN (SELECT billing_code FROM billing_codes WHERE category = 'Imaging') GROUP BY 1",
    },
    reference: sql(
      'Median rate of imaging codes',
      "SELECT r.billing_code, median(r.negotiated_rate) AS median_rate FROM rates r JOIN billing_codes c ON c.billing_code = r.billing_code WHERE c.category = 'Imaging' GROUP BY 1",
    ),
  },
  {
    id: 'why-kaiser',
    level: 'hard',
    question: 'Why are Kaiser’s rates higher than Aetna’s?',
    expected: 'reply',
    reference: reply('The data shows what the rates are, not why: the files say nothing of how they were negotiated.'),
  },
  {
    id: 'forecast',
    level: 'hard',
    question: 'What will the median rate be next year?',
    expected: 'reply',
    reference: reply('The rates on file do not forecast: I can show how they are spread by expiration date instead.'),
  },
  {
    id: 'ambiguous-code',
    level: 'hard',
    question: 'How much does a visit cost?',
    expected: 'reply',
    reference: reply(
      'Which visit do you mean: 99213 (established patient) or 99203 (new patient), and in which state?',
    ),
  },
];
