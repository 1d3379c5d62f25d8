import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

/** Bump when the generated data changes: a new file is built beside the old one. */
const DEMO_VERSION = 2;

export const DEMO_TABLES = ['rates', 'hospital_charges', 'billing_codes', 'fee_schedule', 'localities'] as const;

/** Where the demo database of `rows` rates lives. */
export function demoPath(dir: string, rows: number): string {
  return path.join(dir, `demo-v${DEMO_VERSION}-${rows}.duckdb`);
}

// Codes and short descriptions written for this product (not CPT's descriptors).
const CODES: [string, string, string, string, number, number, number][] = [
  ['99202', 'CPT', 'New patient office visit, short', 'Evaluation', 0.93, 1.05, 0.09],
  ['99203', 'CPT', 'New patient office visit, moderate', 'Evaluation', 1.6, 1.44, 0.15],
  ['99204', 'CPT', 'New patient office visit, long', 'Evaluation', 2.6, 1.93, 0.24],
  ['99211', 'CPT', 'Office visit, nurse', 'Evaluation', 0.18, 0.46, 0.01],
  ['99212', 'CPT', 'Office visit, brief', 'Evaluation', 0.7, 0.8, 0.05],
  ['99213', 'CPT', 'Office visit, established patient', 'Evaluation', 1.3, 1.1, 0.1],
  ['99214', 'CPT', 'Office visit, established patient, detailed', 'Evaluation', 1.92, 1.42, 0.14],
  ['99215', 'CPT', 'Office visit, established patient, complex', 'Evaluation', 2.8, 1.85, 0.2],
  ['99283', 'CPT', 'Emergency visit, moderate', 'Emergency', 1.6, 0.37, 0.17],
  ['99284', 'CPT', 'Emergency visit, high', 'Emergency', 2.74, 0.59, 0.28],
  ['99285', 'CPT', 'Emergency visit, highest', 'Emergency', 4.0, 0.82, 0.41],
  ['70450', 'CPT', 'Head CT without contrast', 'Imaging', 0.85, 3.3, 0.05],
  ['70553', 'CPT', 'Brain MRI with and without contrast', 'Imaging', 2.29, 8.9, 0.12],
  ['71045', 'CPT', 'Chest X-ray, one view', 'Imaging', 0.18, 0.5, 0.01],
  ['71046', 'CPT', 'Chest X-ray, two views', 'Imaging', 0.22, 0.65, 0.01],
  ['72148', 'CPT', 'Lumbar spine MRI', 'Imaging', 1.48, 5.2, 0.08],
  ['73721', 'CPT', 'Knee MRI', 'Imaging', 1.35, 5.1, 0.07],
  ['74177', 'CPT', 'Abdomen and pelvis CT with contrast', 'Imaging', 1.82, 6.8, 0.1],
  ['76700', 'CPT', 'Abdominal ultrasound', 'Imaging', 0.81, 2.9, 0.05],
  ['77067', 'CPT', 'Screening mammogram', 'Imaging', 0.76, 2.4, 0.04],
  ['80048', 'CPT', 'Basic metabolic panel', 'Laboratory', 0, 0.3, 0],
  ['80053', 'CPT', 'Comprehensive metabolic panel', 'Laboratory', 0, 0.4, 0],
  ['80061', 'CPT', 'Lipid panel', 'Laboratory', 0, 0.45, 0],
  ['83036', 'CPT', 'Hemoglobin A1c', 'Laboratory', 0, 0.35, 0],
  ['84443', 'CPT', 'Thyroid stimulating hormone', 'Laboratory', 0, 0.6, 0],
  ['85025', 'CPT', 'Complete blood count', 'Laboratory', 0, 0.3, 0],
  ['81001', 'CPT', 'Urinalysis', 'Laboratory', 0, 0.12, 0],
  ['87635', 'CPT', 'Respiratory virus test', 'Laboratory', 0, 1.4, 0],
  ['93000', 'CPT', 'Electrocardiogram', 'Cardiology', 0.17, 0.3, 0.01],
  ['93306', 'CPT', 'Heart ultrasound, complete', 'Cardiology', 1.3, 4.5, 0.07],
  ['93015', 'CPT', 'Cardiac stress test', 'Cardiology', 0.75, 1.9, 0.04],
  ['45378', 'CPT', 'Colonoscopy, diagnostic', 'Surgery', 3.26, 5.4, 0.43],
  ['45380', 'CPT', 'Colonoscopy with biopsy', 'Surgery', 3.56, 5.8, 0.46],
  ['43239', 'CPT', 'Upper endoscopy with biopsy', 'Surgery', 2.39, 4.7, 0.3],
  ['27447', 'CPT', 'Total knee replacement', 'Surgery', 19.6, 11.2, 3.9],
  ['27130', 'CPT', 'Total hip replacement', 'Surgery', 19.6, 11.4, 3.9],
  ['29881', 'CPT', 'Knee arthroscopy with meniscectomy', 'Surgery', 7.03, 5.9, 1.3],
  ['47562', 'CPT', 'Laparoscopic gallbladder removal', 'Surgery', 10.47, 6.2, 2.1],
  ['49505', 'CPT', 'Inguinal hernia repair', 'Surgery', 7.96, 5.1, 1.6],
  ['66984', 'CPT', 'Cataract removal with lens implant', 'Surgery', 7.35, 5.4, 0.5],
  ['59400', 'CPT', 'Vaginal delivery, routine care', 'Obstetrics', 23.06, 15.2, 4.3],
  ['59510', 'CPT', 'Cesarean delivery, routine care', 'Obstetrics', 26.22, 16.8, 4.9],
  ['90471', 'CPT', 'Vaccine administration', 'Preventive', 0.17, 0.4, 0.01],
  ['90686', 'CPT', 'Flu vaccine, preservative free', 'Preventive', 0, 0.6, 0],
  ['99395', 'CPT', 'Preventive visit, adult 18-39', 'Preventive', 1.75, 1.4, 0.12],
  ['99396', 'CPT', 'Preventive visit, adult 40-64', 'Preventive', 1.9, 1.5, 0.13],
  ['97110', 'CPT', 'Therapeutic exercise, 15 minutes', 'Therapy', 0.45, 0.45, 0.02],
  ['97140', 'CPT', 'Manual therapy, 15 minutes', 'Therapy', 0.43, 0.4, 0.02],
  ['90837', 'CPT', 'Psychotherapy, 60 minutes', 'Behavioral', 3.0, 1.0, 0.11],
  ['90834', 'CPT', 'Psychotherapy, 45 minutes', 'Behavioral', 2.0, 0.7, 0.08],
  ['96372', 'CPT', 'Injection, under skin or muscle', 'Medicine', 0.17, 0.35, 0.01],
  ['36415', 'CPT', 'Blood draw', 'Laboratory', 0, 0.1, 0],
  ['J1100', 'HCPCS', 'Dexamethasone injection, 1 mg', 'Drugs', 0, 0.05, 0],
  ['J3301', 'HCPCS', 'Triamcinolone injection, 10 mg', 'Drugs', 0, 0.08, 0],
  ['J0696', 'HCPCS', 'Ceftriaxone injection, 250 mg', 'Drugs', 0, 0.07, 0],
  ['G0121', 'HCPCS', 'Colon cancer screening, average risk', 'Preventive', 3.26, 5.1, 0.43],
  ['G0438', 'HCPCS', 'Annual wellness visit, first', 'Preventive', 2.43, 1.9, 0.16],
  ['A0427', 'HCPCS', 'Ambulance, advanced life support', 'Transport', 0, 4.5, 0],
  ['E0114', 'HCPCS', 'Crutches, pair', 'Equipment', 0, 0.9, 0],
  ['L3908', 'HCPCS', 'Wrist splint', 'Equipment', 0, 0.7, 0],
];

const PAYERS = [
  'Aetna',
  'Anthem',
  'Blue Cross',
  'Cigna',
  'Humana',
  'Kaiser',
  'Molina',
  'Oscar',
  'UnitedHealthcare',
  'Centene',
  'Highmark',
  'Wellcare',
];
const STATES = [
  'AL',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'FL',
  'GA',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'NE',
  'NV',
  'NJ',
  'NM',
  'NY',
  'NC',
  'OH',
  'OK',
  'OR',
  'PA',
  'SC',
  'TN',
  'TX',
  'UT',
  'VA',
  'WA',
  'WI',
  'WV',
  'NH',
];
const CITY_WORDS = ['River', 'Lake', 'Cedar', 'Oak', 'Pine', 'Maple', 'Granite', 'Harbor', 'Summit', 'Valley'];

const list = (values: readonly string[]) => `[${values.map((value) => `'${value.replaceAll("'", "''")}'`).join(', ')}]`;

/** The statements that build the demo data set; `rows` rates, the rest sized by the lists above. */
function buildStatements(rows: number): string[] {
  const codes = CODES.map(
    ([code, type, description, category, work, pe, mp]) =>
      `('${code}', '${type}', '${description.replaceAll("'", "''")}', '${category}', ${work}, ${pe}, ${mp})`,
  ).join(',\n');
  // h(i, k): a deterministic 64-bit hash of row i and a salt, the only source of "randomness".
  return [
    `CREATE MACRO h(i, k) AS CAST(hash(i * 1000003 + k) >> 1 AS BIGINT)`,
    `CREATE TABLE code_list AS SELECT row_number() OVER () - 1 AS idx, * FROM (VALUES ${codes})
       AS t(billing_code, billing_code_type, description, category, work_rvu, pe_rvu, mp_rvu)`,
    `CREATE TABLE billing_codes AS SELECT billing_code, billing_code_type, description, category FROM code_list`,
    // The relative values as DOUBLE: VALUES would type them DECIMAL, which a report's arithmetic
    // with the conversion factor would carry into every result.
    `CREATE TABLE fee_schedule AS SELECT billing_code, description, work_rvu::DOUBLE AS work_rvu,
       pe_rvu::DOUBLE AS pe_rvu, mp_rvu::DOUBLE AS mp_rvu, 33.2875::DOUBLE AS conversion_factor FROM code_list WHERE billing_code_type = 'CPT'`,
    `CREATE TABLE localities AS
       SELECT lpad(CAST(i + 1 AS VARCHAR), 2, '0') AS locality,
              ${list(STATES)}[i + 1] || ' statewide' AS locality_name,
              ${list(STATES)}[i + 1] AS state,
              round(0.95 + (h(i, 11) % 120) / 1000.0, 3) AS work_gpci,
              round(0.85 + (h(i, 12) % 350) / 1000.0, 3) AS pe_gpci,
              round(0.5 + (h(i, 13) % 900) / 1000.0, 3) AS mp_gpci
       FROM range(${STATES.length}) t(i)`,
    `CREATE TABLE rates AS
       WITH r AS (SELECT i, h(i, 1) AS a, h(i, 2) AS b, h(i, 3) AS c FROM range(${rows}) t(i)),
       picked AS (SELECT a, b, c, (b % ${CODES.length}) + 1 AS k, (c % 4000) AS provider FROM r)
       SELECT ${list(PAYERS)}[(a % ${PAYERS.length}) + 1] AS payer,
              ${list(PAYERS)}[(a % ${PAYERS.length}) + 1] || ' ' || ['Choice', 'Select', 'Premier', 'Value'][(a // 7 % 4) + 1]
                || ' ' || ['PPO', 'HMO', 'EPO', 'POS'][(a // 31 % 4) + 1] AS plan_name,
              ['PPO', 'HMO', 'EPO', 'POS'][(a // 31 % 4) + 1] AS plan_type,
              CAST(1000000000 + provider * 211 + 7 AS VARCHAR) AS npi,
              ${list(CITY_WORDS)}[(provider % ${CITY_WORDS.length}) + 1] || ' Medical Group ' ||
                CAST(provider % 400 + 1 AS VARCHAR) AS provider_group,
              ${list(CODES.map((code) => code[1]))}[k] AS billing_code_type,
              ${list(CODES.map((code) => code[0]))}[k] AS billing_code,
              ${list(CODES.map((code) => code[2]))}[k] AS description,
              ['negotiated', 'negotiated', 'fee schedule', 'percentage'][(c // 13 % 4) + 1] AS negotiated_type,
              round([${CODES.map((code) => (code[4] * 1.02 + code[5] + code[6] + 0.4).toFixed(4)).join(', ')}][k]
                    * 33.2875 * (0.8 + (a // 101 % 1000) / 700.0) * (1 + (a % ${PAYERS.length}) / 40.0), 2)::DOUBLE
                AS negotiated_rate,
              CASE WHEN b // 17 % 5 = 0 THEN 'institutional' ELSE 'professional' END AS billing_class,
              ${list(STATES)}[(provider % ${STATES.length}) + 1] AS state,
              DATE '2026-01-01' + CAST(c // 97 % 730 AS INTEGER) AS expiration_date
       FROM picked`,
    `CREATE TABLE hospital_charges AS
       WITH hospitals AS (
         SELECT i, ${list(CITY_WORDS)}[(i % ${CITY_WORDS.length}) + 1] || ' ' ||
                  ['General Hospital', 'Medical Center', 'Regional Hospital', 'Community Hospital'][(i // 10 % 4) + 1]
                  AS hospital,
                ${list(CITY_WORDS)}[(i * 7 % ${CITY_WORDS.length}) + 1] || 'ton' AS city,
                ${list(STATES)}[(i % ${STATES.length}) + 1] AS state
         FROM range(40) t(i)),
       gross AS (
         SELECT hp.i AS hi, hp.hospital, hp.city, hp.state, cl.billing_code, cl.description, cl.idx,
                round((cl.work_rvu + cl.pe_rvu + cl.mp_rvu + 0.5) * 33.2875 * (2.2 + (h(hp.i * 100 + cl.idx, 5) % 300) / 100.0), 2)
                  AS gross_charge
         FROM hospitals hp CROSS JOIN code_list cl)
       SELECT g.hospital, g.city, g.state, g.billing_code, g.description, g.gross_charge::DOUBLE AS gross_charge,
              round(g.gross_charge * 0.55, 2)::DOUBLE AS cash_price, pa.payer,
              round(g.gross_charge * (0.35 + (h(g.hi * 10000 + g.idx * 100 + pa.j, 6) % 300) / 1000.0), 2)::DOUBLE
                AS negotiated_charge,
              round(g.gross_charge * 0.3, 2)::DOUBLE AS min_negotiated,
              round(g.gross_charge * 0.68, 2)::DOUBLE AS max_negotiated
       FROM gross g CROSS JOIN (SELECT unnest(${list(PAYERS)}) AS payer, unnest(range(${PAYERS.length})) AS j) pa
       ORDER BY g.hospital, g.billing_code, pa.payer`,
    `DROP TABLE code_list`,
    `DROP MACRO h`,
  ];
}

const building = new Map<string, Promise<string>>();

/**
 * The demo database of `rows` rates under `dir`, built on first use (once per process however many
 * ask at once; a build is written under a temporary name and renamed, so another process never
 * opens half a file).
 */
export function ensureDemoDatabase(dir: string, rows: number): Promise<string> {
  const target = demoPath(dir, rows);
  let pending = building.get(target);
  if (!pending) {
    pending = build(dir, rows, target).finally(() => building.delete(target));
    building.set(target, pending);
  }
  return pending;
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

async function build(dir: string, rows: number, target: string): Promise<string> {
  if (await exists(target)) return target;
  await mkdir(dir, { recursive: true });
  const temporary = `${target}.${process.pid}.${Date.now()}.building`;
  const instance = await DuckDBInstance.create(temporary, { threads: '2', memory_limit: '1GB' });
  try {
    const connection = await instance.connect();
    for (const statement of buildStatements(rows)) await connection.run(statement);
    await connection.run('CHECKPOINT');
    connection.closeSync();
  } finally {
    instance.closeSync();
  }
  await rm(`${temporary}.wal`, { force: true });
  await rename(temporary, target);
  return target;
}
