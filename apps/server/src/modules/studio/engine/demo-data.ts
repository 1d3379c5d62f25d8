import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

/**
 * The `demo` source: a generated price-transparency data set (STUDIO.md), so a fresh `npm start`
 * has something real to report on. Deterministic: every value is arithmetic on the row number, so
 * two instances (or two machines) build the same file. Codes are real code numbers; the payers,
 * hospitals and descriptions are our own words. Built once per row count into the data folder,
 * into a temporary file renamed into place, so instances starting together never read a half-built
 * file.
 */

/** Bumped when the generator changes: a new file is built beside the old one. */
const GENERATOR_VERSION = 1;

/** The tables of the demo source, for the guard and the source browser. */
export const DEMO_TABLES = ['rates', 'hospital_charges', 'billing_codes', 'fee_schedule', 'localities'] as const;

// code, type, description, category, class, typical price, work RVU, practice-expense RVU, malpractice RVU
const CODES: [string, string, string, string, string, number, number, number, number][] = [
  ['99202', 'CPT', 'New patient office visit, short', 'Office visits', 'professional', 95, 0.93, 1.12, 0.09],
  ['99203', 'CPT', 'New patient office visit, moderate', 'Office visits', 'professional', 140, 1.6, 1.51, 0.15],
  ['99204', 'CPT', 'New patient office visit, long', 'Office visits', 'professional', 210, 2.6, 1.98, 0.24],
  ['99212', 'CPT', 'Follow-up office visit, short', 'Office visits', 'professional', 70, 0.7, 0.87, 0.05],
  ['99213', 'CPT', 'Follow-up office visit, moderate', 'Office visits', 'professional', 105, 1.3, 1.24, 0.1],
  ['99214', 'CPT', 'Follow-up office visit, long', 'Office visits', 'professional', 150, 1.92, 1.6, 0.14],
  ['99215', 'CPT', 'Follow-up office visit, extended', 'Office visits', 'professional', 205, 2.8, 2.07, 0.2],
  ['99283', 'CPT', 'Emergency department visit, moderate', 'Emergency care', 'institutional', 480, 1.6, 0.38, 0.17],
  [
    '99285',
    'CPT',
    'Emergency department visit, high severity',
    'Emergency care',
    'institutional',
    1250,
    4.0,
    0.83,
    0.42,
  ],
  ['70450', 'CPT', 'CT scan of the head, no contrast', 'Imaging', 'institutional', 520, 0.85, 2.98, 0.05],
  ['71046', 'CPT', 'Chest X-ray, two views', 'Imaging', 'institutional', 95, 0.22, 0.73, 0.02],
  ['72148', 'CPT', 'MRI of the lower spine, no contrast', 'Imaging', 'institutional', 980, 1.48, 4.9, 0.09],
  ['74177', 'CPT', 'CT of abdomen and pelvis with contrast', 'Imaging', 'institutional', 1100, 1.82, 7.7, 0.11],
  ['76700', 'CPT', 'Ultrasound of the abdomen, complete', 'Imaging', 'institutional', 330, 0.81, 3.04, 0.05],
  ['77067', 'CPT', 'Screening mammogram, both breasts', 'Imaging', 'institutional', 210, 0.76, 3.4, 0.04],
  ['80053', 'CPT', 'Comprehensive metabolic blood panel', 'Laboratory', 'institutional', 38, 0, 0.4, 0],
  ['85025', 'CPT', 'Complete blood count with differential', 'Laboratory', 'institutional', 25, 0, 0.3, 0],
  ['80061', 'CPT', 'Lipid blood panel', 'Laboratory', 'institutional', 42, 0, 0.45, 0],
  ['84443', 'CPT', 'Thyroid stimulating hormone test', 'Laboratory', 'institutional', 48, 0, 0.5, 0],
  ['93000', 'CPT', 'Electrocardiogram with report', 'Cardiology', 'professional', 55, 0.17, 0.33, 0.02],
  ['93306', 'CPT', 'Echocardiogram, complete', 'Cardiology', 'institutional', 720, 1.46, 4.6, 0.08],
  ['45378', 'CPT', 'Colonoscopy, diagnostic', 'Procedures', 'institutional', 1450, 3.26, 4.9, 0.37],
  ['43239', 'CPT', 'Upper endoscopy with biopsy', 'Procedures', 'institutional', 1250, 2.29, 4.1, 0.26],
  ['29881', 'CPT', 'Knee arthroscopy with meniscus repair', 'Surgery', 'institutional', 4200, 7.03, 7.2, 1.35],
  ['27447', 'CPT', 'Total knee replacement', 'Surgery', 'institutional', 31000, 19.6, 11.5, 3.9],
  ['27130', 'CPT', 'Total hip replacement', 'Surgery', 'institutional', 33000, 19.6, 11.3, 3.9],
  ['47562', 'CPT', 'Laparoscopic gallbladder removal', 'Surgery', 'institutional', 9800, 10.47, 7.6, 2.4],
  ['59400', 'CPT', 'Vaginal delivery with routine care', 'Maternity', 'institutional', 9500, 23.06, 17.0, 5.6],
  ['59510', 'CPT', 'Cesarean delivery with routine care', 'Maternity', 'institutional', 12500, 26.22, 19.2, 6.4],
  ['90471', 'CPT', 'Vaccine administration, first', 'Preventive care', 'professional', 28, 0.17, 0.4, 0.01],
  ['J1885', 'HCPCS', 'Injection of an anti-inflammatory drug', 'Drugs', 'professional', 12, 0, 0.1, 0],
  ['G0121', 'HCPCS', 'Colorectal screening colonoscopy', 'Preventive care', 'institutional', 1300, 3.26, 4.7, 0.37],
];

// payer, price factor against the typical price
const PAYERS: [string, number][] = [
  ['Northwind Health', 1.0],
  ['Bluepeak Mutual', 1.18],
  ['Harborline Care', 0.92],
  ['Summit Shield', 1.32],
  ['Granite State Plans', 0.85],
  ['Lakeshore Health Alliance', 1.05],
  ['Redwood Benefit Co', 1.41],
  ['Meridian Wellcare', 0.78],
  ['Copperfield Insurance', 1.12],
  ['Open Prairie Health', 0.95],
  ['Tidewater Assurance', 1.24],
  ['Evergreen Cooperative', 0.88],
];

// locality, name, state, work GPCI, practice-expense GPCI, malpractice GPCI
const LOCALITIES: [string, string, string, number, number, number][] = [
  ['0111205', 'Manhattan', 'NY', 1.094, 1.307, 1.674],
  ['0111202', 'Rest of New York', 'NY', 1.0, 0.946, 0.688],
  ['0111218', 'San Francisco', 'CA', 1.103, 1.449, 0.585],
  ['0111226', 'Los Angeles', 'CA', 1.051, 1.17, 0.745],
  ['0112101', 'Miami', 'FL', 1.0, 1.049, 2.561],
  ['0112103', 'Rest of Florida', 'FL', 1.0, 0.932, 1.398],
  ['0110516', 'Chicago', 'IL', 1.01, 1.05, 1.883],
  ['0110599', 'Rest of Illinois', 'IL', 1.0, 0.884, 1.061],
  ['0110418', 'Houston', 'TX', 1.017, 0.995, 0.872],
  ['0110420', 'Rest of Texas', 'TX', 1.0, 0.913, 0.819],
  ['0110201', 'Seattle', 'WA', 1.03, 1.151, 0.832],
  ['0110301', 'Boston', 'MA', 1.029, 1.274, 0.887],
  ['0110410', 'Atlanta', 'GA', 1.0, 0.978, 0.981],
  ['0110499', 'Rest of Georgia', 'GA', 1.0, 0.886, 0.946],
  ['0110901', 'Denver', 'CO', 1.0, 1.047, 0.858],
  ['0110801', 'Phoenix', 'AZ', 1.0, 0.982, 0.877],
  ['0110601', 'Minneapolis', 'MN', 1.0, 1.012, 0.283],
  ['0111001', 'Detroit', 'MI', 1.0, 0.995, 1.602],
  ['0110701', 'Rest of Ohio', 'OH', 1.0, 0.898, 0.956],
  ['0111101', 'Rest of Montana', 'MT', 1.0, 0.871, 1.226],
];

/** Medicare's 2025 physician fee schedule conversion factor (dollars per relative value unit). */
const CONVERSION_FACTOR = 32.3465;

const HOSPITAL_NAMES = ['General Hospital', 'Medical Center', 'Regional Health', 'Community Hospital'];

const sqlText = (value: string) => `'${value.replaceAll("'", "''")}'`;
const valuesList = (rows: (string | number)[][]) =>
  rows
    .map((row) => `(${row.map((cell) => (typeof cell === 'number' ? String(cell) : sqlText(cell))).join(', ')})`)
    .join(',\n');

function generatorSql(rows: number): string[] {
  const codes = CODES.map((code, index) => [index, ...code]);
  const payers = PAYERS.map((payer, index) => [index, ...payer]);
  const localities = LOCALITIES.map((locality, index) => [index, ...locality]);
  return [
    `CREATE TEMP TABLE code_list (idx INTEGER, billing_code VARCHAR, billing_code_type VARCHAR, description VARCHAR,
       category VARCHAR, billing_class VARCHAR, typical DOUBLE, work_rvu DOUBLE, pe_rvu DOUBLE, mp_rvu DOUBLE)`,
    `INSERT INTO code_list VALUES ${valuesList(codes)}`,
    `CREATE TEMP TABLE payer_list (idx INTEGER, payer VARCHAR, factor DOUBLE)`,
    `INSERT INTO payer_list VALUES ${valuesList(payers)}`,
    `CREATE TEMP TABLE locality_list (idx INTEGER, locality VARCHAR, locality_name VARCHAR, state VARCHAR,
       work_gpci DOUBLE, pe_gpci DOUBLE, mp_gpci DOUBLE)`,
    `INSERT INTO locality_list VALUES ${valuesList(localities)}`,
    `CREATE TABLE billing_codes AS
       SELECT billing_code, billing_code_type, description, category FROM code_list ORDER BY idx`,
    `CREATE TABLE fee_schedule AS
       SELECT billing_code, description, work_rvu, pe_rvu, mp_rvu, ${CONVERSION_FACTOR}::DOUBLE AS conversion_factor
       FROM code_list ORDER BY idx`,
    `CREATE TABLE localities AS
       SELECT locality, locality_name, state, work_gpci, pe_gpci, mp_gpci FROM locality_list ORDER BY idx`,
    // One row per (payer, plan, provider, code): the spread is arithmetic on the row number; about
    // one row in a thousand is an outlier at three to five times the usual rate.
    `CREATE TABLE rates AS
       WITH numbered AS (SELECT range AS i FROM range(${rows}))
       SELECT
         p.payer,
         p.payer || ' ' || ['PPO', 'HMO', 'EPO', 'POS'][1 + (i // 12) % 4] || ' ' || ['Bronze', 'Silver', 'Gold'][1 + (i // 48) % 3] AS plan_name,
         ['PPO', 'HMO', 'EPO', 'POS'][1 + (i // 12) % 4] AS plan_type,
         (1000000000 + (i * 104729) % 60000 * 7919 % 900000000)::VARCHAR AS npi,
         'Provider group ' || lpad(((i * 104729) % 60000 % 2400)::VARCHAR, 4, '0') AS provider_group,
         c.billing_code_type,
         c.billing_code,
         c.description,
         ['negotiated', 'negotiated', 'negotiated', 'fee schedule', 'percentage'][1 + (i * 31) % 5] AS negotiated_type,
         round(c.typical * p.factor * (0.95 + l.work_gpci * 0.05 + (l.pe_gpci - 1) * 0.3)
           * (0.55 + ((i * 2654435761) % 1000) / 1000.0 * 0.9)
           * CASE WHEN i % 997 = 0 THEN 3 + (i % 3) ELSE 1 END, 2) AS negotiated_rate,
         c.billing_class,
         l.state,
         DATE '2027-01-01' + ((i * 13) % 365)::INTEGER AS expiration_date
       FROM numbered
       JOIN payer_list p ON p.idx = i % ${PAYERS.length}
       JOIN code_list c ON c.idx = (i * 7919 // 12) % ${CODES.length}
       JOIN locality_list l ON l.idx = ((i * 104729) % 60000) % ${LOCALITIES.length}
       ORDER BY i`,
    // Every hospital's standard charges for every code, with each payer's negotiated charge.
    `CREATE TABLE hospital_charges AS
       WITH hospitals AS (
         SELECT h AS idx, l.locality_name || ' ' || ${`[${HOSPITAL_NAMES.map(sqlText).join(', ')}]`}[1 + h // ${LOCALITIES.length} % ${HOSPITAL_NAMES.length}] AS hospital,
                l.locality_name AS city, l.state, 0.8 + ((h * 37) % 10) / 20.0 AS factor
         FROM range(40) t(h) JOIN locality_list l ON l.idx = h % ${LOCALITIES.length}
       ),
       charges AS (
         SELECT h.hospital, h.city, h.state, c.billing_code, c.description,
                round(c.typical * 2.6 * h.factor, 2) AS gross_charge,
                round(c.typical * 1.15 * h.factor * (0.85 + ((h.idx * 7 + c.idx * 3) % 10) / 30.0), 2) AS cash_price,
                p.payer,
                round(c.typical * p.factor * h.factor * (0.8 + ((h.idx * 11 + c.idx * 5 + p.idx * 13) % 17) / 40.0), 2) AS negotiated_charge
         FROM hospitals h CROSS JOIN code_list c CROSS JOIN payer_list p
       )
       SELECT *,
              min(negotiated_charge) OVER (PARTITION BY hospital, billing_code) AS min_negotiated,
              max(negotiated_charge) OVER (PARTITION BY hospital, billing_code) AS max_negotiated
       FROM charges ORDER BY hospital, billing_code, payer`,
  ];
}

/**
 * The demo database file for `rows` rates, built if missing. Returns its path. Concurrent callers
 * in one process share one build; another process building the same file loses only its work.
 */
export async function ensureDemoDatabase(folder: string, rows: number): Promise<string> {
  const file = path.join(folder, `demo-v${GENERATOR_VERSION}-${rows}.duckdb`);
  if (existsSync(file)) return file;
  mkdirSync(folder, { recursive: true });
  const staging = `${file}.tmp-${process.pid}-${Date.now()}`;
  const instance = await DuckDBInstance.create(staging, { enable_external_access: 'false', threads: '2' });
  try {
    const connection = await instance.connect();
    for (const statement of generatorSql(rows)) await connection.run(statement);
    await connection.run('CHECKPOINT');
    connection.closeSync();
  } catch (error) {
    instance.closeSync();
    rmSync(staging, { force: true });
    rmSync(`${staging}.wal`, { force: true });
    throw error;
  }
  instance.closeSync();
  if (!existsSync(file)) renameSync(staging, file);
  rmSync(staging, { force: true });
  rmSync(`${staging}.wal`, { force: true });
  return file;
}
