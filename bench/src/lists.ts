import type { Database } from '@dataplatform/server/src/db/client.js';
import { listAuditEntries } from '@dataplatform/server/src/modules/audit/audit.repository.js';
import { listTransactions } from '@dataplatform/server/src/modules/billing/transactions.repository.js';
import { listSubmissions } from '@dataplatform/server/src/modules/contact/contact.repository.js';
import { listTenants } from '@dataplatform/server/src/modules/tenants/tenants.repository.js';
import { listUsers } from '@dataplatform/server/src/modules/users/users.repository.js';
import type { ListsFixture } from './lists-fixture.js';

/** The consoles' page size (admin tabs and the transactions table). */
export const LIST_PAGE_SIZE = 10;

export type ListName = 'users' | 'contact' | 'transactions' | 'audit' | 'tenants';
/** `search`: the list's own filter as the console offers it; `broad`: a search matching many rows. */
export type ListPage = 'first' | 'middle' | 'search' | 'broad';

export interface ListScenario {
  id: string;
  list: ListName;
  page: ListPage;
  label: string;
  /** First page and search carry the target: at 100 000 rows, ≥ 0.67 × their rate at 1 000. */
  targeted: boolean;
  /** The request, under /api/v1. */
  path(fixture: ListsFixture): string;
  /** What `count` must say (counted with count(*) after the fill). */
  count(fixture: ListsFixture): number;
  /** The same list through the server's own repository, whose queries are explained. */
  query(db: Database, fixture: ListsFixture, readerId: string): Promise<unknown>;
}

const page = (skip: number) => ({ skip, limit: LIST_PAGE_SIZE });
const middle = (count: number) => Math.floor(count / 2);
const query = (parameters: Record<string, string | number>) =>
  new URLSearchParams(
    Object.entries(parameters).map(([key, value]): [string, string] => [key, String(value)]),
  ).toString();

function scenarios(
  list: ListName,
  endpoint: string,
  total: (fixture: ListsFixture) => number,
  run: (db: Database, skip: number, fixture: ListsFixture, readerId: string) => Promise<unknown>,
  searches: {
    page: 'search' | 'broad';
    /** The query parameter the console searches or filters by, and how much it matches. */
    by: string;
    parameters: (fixture: ListsFixture) => Record<string, string>;
    count: (fixture: ListsFixture) => number;
    run: (db: Database, fixture: ListsFixture, readerId: string) => Promise<unknown>;
  }[] = [],
): ListScenario[] {
  return [
    {
      id: `${list}-first`,
      list,
      page: 'first',
      label: `GET ${endpoint} first page`,
      targeted: true,
      path: () => `${endpoint}?${query(page(0))}`,
      count: total,
      query: (db, fixture, readerId) => run(db, 0, fixture, readerId),
    },
    {
      id: `${list}-middle`,
      list,
      page: 'middle',
      label: `GET ${endpoint} middle page`,
      targeted: false,
      path: (fixture) => `${endpoint}?${query(page(middle(total(fixture))))}`,
      count: total,
      query: (db, fixture, readerId) => run(db, middle(total(fixture)), fixture, readerId),
    },
    ...searches.map((search): ListScenario => ({
      id: `${list}-${search.page}`,
      list,
      page: search.page,
      label: `GET ${endpoint} ${search.page === 'broad' ? 'broad search' : 'search'} (${search.by})`,
      targeted: search.page === 'search',
      path: (fixture) => `${endpoint}?${query({ ...page(0), ...search.parameters(fixture) })}`,
      count: search.count,
      query: search.run,
    })),
  ];
}

/** Every list the consoles page through: first page, a page in the middle, and its search. */
export const LIST_SCENARIOS: ListScenario[] = [
  ...scenarios(
    'users',
    '/users/',
    (fixture) => fixture.counts.users,
    (db, skip) => listUsers(db, page(skip)),
    [
      {
        page: 'search',
        by: 'q, one match',
        parameters: (fixture) => ({ q: fixture.narrowSearch }),
        count: (fixture) => fixture.counts.usersNarrow,
        run: (db, fixture) => listUsers(db, { ...page(0), q: fixture.narrowSearch }),
      },
      {
        page: 'broad',
        by: 'q, 2% match',
        parameters: (fixture) => ({ q: fixture.broadSearch }),
        count: (fixture) => fixture.counts.usersBroad,
        run: (db, fixture) => listUsers(db, { ...page(0), q: fixture.broadSearch }),
      },
    ],
  ),
  ...scenarios(
    'contact',
    '/contact/',
    (fixture) => fixture.counts.contact,
    (db, skip) => listSubmissions(db, page(skip)),
    [
      {
        page: 'search',
        by: 'status, 20% match',
        parameters: (fixture) => ({ status: fixture.contactStatus }),
        count: (fixture) => fixture.counts.contactStatus,
        run: (db, fixture) =>
          listSubmissions(db, { ...page(0), status: fixture.contactStatus as 'new' | 'read' | 'replied' }),
      },
    ],
  ),
  ...scenarios(
    'transactions',
    '/subscriptions/transactions',
    (fixture) => fixture.counts.transactions,
    (db, skip, _fixture, readerId) => listTransactions(db, readerId, page(skip)),
  ),
  ...scenarios(
    'audit',
    '/audit/',
    (fixture) => fixture.counts.audit,
    (db, skip) => listAuditEntries(db, {}, page(skip)),
    [
      {
        page: 'search',
        by: 'action, 5% match',
        parameters: (fixture) => ({ action: fixture.auditAction }),
        count: (fixture) => fixture.counts.auditAction,
        run: (db, fixture) => listAuditEntries(db, { action: fixture.auditAction }, page(0)),
      },
    ],
  ),
  ...scenarios(
    'tenants',
    '/tenants/',
    (fixture) => fixture.counts.tenants,
    (db, skip) => listTenants(db, page(skip)),
  ),
];
