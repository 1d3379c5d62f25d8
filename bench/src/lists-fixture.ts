import pg from 'pg';

/**
 * The lists' data, generated in SQL (generate_series), so 100 000 rows of each take seconds: users,
 * contact messages, transactions, audit entries and tenants, each filled to `rows` in total.
 *
 * - users: `first.last<i>@<domain>`, "First Last" from 40 first and 50 last names;
 * - contact messages: 20% `new`, the rest read, replied, archived or spam;
 * - transactions: all the list reader's own (the worst case for `GET /subscriptions/transactions`,
 *   which lists the caller's);
 * - audit entries: every action of the console, by 10 admins;
 * - tenants: `Tenant 000001`…, 90% active.
 *
 * Rows are a minute apart, newest last. Then VACUUM ANALYZE, as autovacuum would have done on a
 * live database: statistics for the planner and a visibility map for index-only scans.
 */

const FIRST_NAMES = [
  'Ada',
  'Alan',
  'Barbara',
  'Claude',
  'Dennis',
  'Donald',
  'Edsger',
  'Frances',
  'Grace',
  'Guido',
  'Hedy',
  'Ivan',
  'James',
  'Jean',
  'John',
  'Ken',
  'Leslie',
  'Linus',
  'Margaret',
  'Mary',
  'Niklaus',
  'Radia',
  'Richard',
  'Robin',
  'Shafi',
  'Sophie',
  'Tim',
  'Tony',
  'Vint',
  'Whitfield',
  'Adele',
  'Bjarne',
  'Carl',
  'Dana',
  'Evelyn',
  'Fran',
  'Gordon',
  'Hal',
  'Ida',
  'Joan',
];
const LAST_NAMES = [
  'Lovelace',
  'Turing',
  'Liskov',
  'Shannon',
  'Ritchie',
  'Knuth',
  'Dijkstra',
  'Allen',
  'Hopper',
  'Rossum',
  'Lamarr',
  'Sutherland',
  'Gosling',
  'Sammet',
  'Backus',
  'Thompson',
  'Lamport',
  'Torvalds',
  'Hamilton',
  'Keller',
  'Wirth',
  'Perlman',
  'Stallman',
  'Milner',
  'Goldwasser',
  'Wilson',
  'Berners',
  'Hoare',
  'Cerf',
  'Diffie',
  'Goldberg',
  'Stroustrup',
  'Petri',
  'Scott',
  'Hartmanis',
  'Allison',
  'Bell',
  'Abelson',
  'Rhodes',
  'Clarke',
  'Codd',
  'Engelbart',
  'Floyd',
  'Gray',
  'Hellman',
  'Iverson',
  'Kahan',
  'Kay',
  'McCarthy',
  'Minsky',
];
const DOMAINS = ['example.com', 'example.org', 'example.net', 'mail.example', 'corp.example'];
const ACTIONS = [
  'user.create',
  'user.update',
  'user.delete',
  'role.create',
  'role.update',
  'role.delete',
  'permission.create',
  'permission.update',
  'permission.delete',
  'user.role.add',
  'user.roles.replace',
  'role.permission.add',
  'role.permissions.replace',
  'file.download',
  'tenant.create',
  'tenant.update',
  'tenant.delete',
  'tenant.members.replace',
  'contact.status.update',
];
const CONTACT_STATUSES = [
  'new',
  'read',
  'read',
  'replied',
  'replied',
  'replied',
  'archived',
  'archived',
  'spam',
  'new',
];
const TRANSACTION_STATUSES = ['succeeded', 'succeeded', 'succeeded', 'failed', 'pending'];

/** What the scenarios ask for: a user to find by name, a status, an action. */
export interface ListsFixture {
  rows: number;
  /** `q` that finds one user: the last name and number of the middle one (`hopper500`). */
  narrowSearch: string;
  /** `q` that matches one user in 50: a last name. */
  broadSearch: string;
  contactStatus: string;
  auditAction: string;
  /** What each list's `count` must be, counted with count(*) after the fill. */
  counts: {
    users: number;
    usersNarrow: number;
    usersBroad: number;
    contact: number;
    contactStatus: number;
    transactions: number;
    audit: number;
    auditAction: number;
    tenants: number;
  };
  seconds: number;
}

/** Fills every listed table of the database at `url` to `rows` rows; `readerId` owns the transactions. */
export async function fillLists(url: string, rows: number, readerId: string): Promise<ListsFixture> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: existing } = await client.query<{ n: number; hash: string }>(
      'SELECT count(*)::int AS n, min(hashed_password) AS hash FROM users',
    );
    const extraUsers = rows - existing[0]!.n;
    const at = (total: string) => `now() - make_interval(mins => ${total} - i)`;
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO users (email, hashed_password, full_name, is_active, is_superuser, password_changed_at, created_at, updated_at)
       SELECT lower(f || '.' || l) || i || '@' || d, $5, f || ' ' || l, i % 50 <> 0, false, t, t, t
       FROM generate_series(1, $1::int) AS i,
            LATERAL (SELECT ($2::text[])[1 + i % 40] AS f, ($3::text[])[1 + (i / 40) % 50] AS l,
                            ($4::text[])[1 + i % 5] AS d, ${at('$1::int')} AS t) AS v`,
      [extraUsers, FIRST_NAMES, LAST_NAMES, DOMAINS, existing[0]!.hash],
    );
    await client.query(
      `INSERT INTO contact_submissions (name, email, company, subject, message, status, ip, created_at, updated_at)
       SELECT 'Visitor ' || i, 'visitor' || i || '@example.org', 'Company ' || (i % 997),
              'Question ' || i, 'How much does the data platform cost for ' || i || ' users?',
              ($2::text[])[1 + i % 10], '10.0.0.' || (i % 250), t, t
       FROM generate_series(1, $1::int) AS i, LATERAL (SELECT ${at('$1::int')} AS t) AS v`,
      [rows, CONTACT_STATUSES],
    );
    await client.query(
      `INSERT INTO transactions (user_id, kind, amount, currency, status, description, provider, provider_payment_id, created_at)
       SELECT $2::uuid, 'renewal', 9.99 + i % 100, 'EUR', ($3::text[])[1 + i % 5], 'Renewal ' || i, 'sandbox',
              'bench_pi_' || i, ${at('$1::int')}
       FROM generate_series(1, $1::int) AS i`,
      [rows, readerId, TRANSACTION_STATUSES],
    );
    await client.query(
      `WITH admins AS (SELECT array_agg(id) AS ids, array_agg(email) AS emails
                       FROM (SELECT id, email FROM users ORDER BY created_at LIMIT 10) AS a)
       INSERT INTO audit_log (actor_id, actor_email, action, target_type, target_id, after, ip, created_at)
       SELECT admins.ids[1 + i % 10], admins.emails[1 + i % 10], action,
              CASE split_part(action, '.', 1) WHEN 'contact' THEN 'contact_submission' ELSE split_part(action, '.', 1) END,
              md5(i::text), jsonb_build_object('name', 'Thing ' || i), '10.0.0.1', ${at('$1::int')}
       FROM generate_series(1, $1::int) AS i, admins, LATERAL (SELECT ($2::text[])[1 + i % 19] AS action) AS a`,
      [rows, ACTIONS],
    );
    await client.query(
      `INSERT INTO tenants (name, description, status, created_at, updated_at)
       SELECT 'Tenant ' || lpad(i::text, 6, '0'), 'Tenant number ' || i,
              CASE WHEN i % 10 = 0 THEN 'inactive' ELSE 'active' END, t, t
       FROM generate_series(1, $1::int) AS i, LATERAL (SELECT ${at('$1::int')} AS t) AS v`,
      [rows],
    );
    await client.query('COMMIT');
    await client.query('VACUUM ANALYZE users, contact_submissions, transactions, audit_log, tenants, row_counts');

    const middle = Math.floor(extraUsers / 2);
    const narrowSearch = `${LAST_NAMES[Math.floor(middle / 40) % 50]!.toLowerCase()}${middle}`;
    const broadSearch = 'hopper';
    const contactStatus = 'new';
    const auditAction = 'user.update';
    const countOf = async (query: string, values: unknown[] = []) =>
      (await client.query<{ n: number }>(query, values)).rows[0]!.n;
    const search = `SELECT count(*)::int AS n FROM users WHERE email ILIKE $1 OR full_name ILIKE $1`;
    const counts = {
      users: await countOf('SELECT count(*)::int AS n FROM users'),
      usersNarrow: await countOf(search, [`%${narrowSearch}%`]),
      usersBroad: await countOf(search, [`%${broadSearch}%`]),
      contact: await countOf('SELECT count(*)::int AS n FROM contact_submissions'),
      contactStatus: await countOf('SELECT count(*)::int AS n FROM contact_submissions WHERE status = $1', [
        contactStatus,
      ]),
      transactions: await countOf('SELECT count(*)::int AS n FROM transactions WHERE user_id = $1', [readerId]),
      audit: await countOf('SELECT count(*)::int AS n FROM audit_log'),
      auditAction: await countOf('SELECT count(*)::int AS n FROM audit_log WHERE action = $1', [auditAction]),
      tenants: await countOf('SELECT count(*)::int AS n FROM tenants'),
    };
    return {
      rows,
      narrowSearch,
      broadSearch,
      contactStatus,
      auditAction,
      counts,
      seconds: (performance.now() - started) / 1000,
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
