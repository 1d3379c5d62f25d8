import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/errors.js';
import { bothSettled, createDuckdbPreparer, duckdbFailure, executeDuckdb } from './duckdb-queries.js';
import { createWorkUnderWay } from './work-under-way.js';

let instance: DuckDBInstance;
const tables = new Set(['numbers']);
const limits = { rowCap: 10, queryTimeoutMs: 5_000 };

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run('CREATE TABLE numbers AS SELECT range AS n, range % 3 AS bucket FROM range(100)');
  connection.closeSync();
});

afterAll(() => instance.closeSync());

describe('preparing DuckDB SQL', () => {
  it('binds the parameters and passes a read of the readable tables', async () => {
    const prepare = createDuckdbPreparer();
    const prepared = await prepare(
      instance,
      { sql: 'SELECT n FROM numbers WHERE n < :top', params: { top: 5 } },
      tables,
    );
    expect(prepared.text).toBe('SELECT n FROM numbers WHERE n < $p0');
    expect(Object.keys(prepared.values)).toEqual(['p0']);
  });

  it('refuses a table the source has not and a text the parser cannot read, each time it is asked', async () => {
    const prepare = createDuckdbPreparer();
    for (let attempt = 0; attempt < 2; attempt += 1) {
      await expect(prepare(instance, { sql: 'SELECT * FROM secrets', params: {} }, tables)).rejects.toMatchObject({
        errorCode: 'query_refused',
      });
      await expect(prepare(instance, { sql: 'SELEC nothing', params: {} }, tables)).rejects.toMatchObject({
        errorCode: 'query_refused',
      });
    }
  });
});

describe('executing on DuckDB', () => {
  const work = createWorkUnderWay();
  const run = async (sql: string, shape: 'page' | 'capped', paging = { skip: 0, limit: 5 }) => {
    const prepared = await createDuckdbPreparer()(instance, { sql, params: {} }, tables);
    return executeDuckdb(
      instance,
      { ...prepared, shape, ...paging, sort: [{ column: 'n', direction: 'desc' }] },
      new AbortController().signal,
      limits,
      work,
    );
  };

  it('pages with an exact count and the requested sort', async () => {
    const page = await run('SELECT n FROM numbers', 'page', { skip: 2, limit: 3 });
    expect(page).toEqual({ columns: [{ name: 'n', type: 'BIGINT' }], rows: [[97], [96], [95]], count: 100 });
    expect(work.size).toBe(0);
  });

  it('caps charts and KPIs at rowCap', async () => {
    expect((await run('SELECT bucket AS n, count(*) AS c FROM numbers GROUP BY 1', 'capped')).count).toBe(3);
    await expect(run('SELECT n FROM numbers', 'capped')).rejects.toMatchObject({ errorCode: 'result_too_large' });
  });
});

describe('what a DuckDB failure means', () => {
  it('is a timeout, a cancel, too much memory or the query’s own error', () => {
    expect(duckdbFailure(new Error('INTERRUPT Error: Interrupted!'), 2_000).errorCode).toBe('query_timeout');
    expect(duckdbFailure(new Error('INTERRUPT Error: Interrupted!'), null).errorCode).toBe('query_refused');
    expect(duckdbFailure(new Error('Out of Memory Error: x'), null).detail).toMatch(/more memory/);
    expect(duckdbFailure(new Error('Binder Error: no\nmore'), null).detail).toBe('The query failed: Binder Error: no');
    const own = new AppError('result_too_large', 'x');
    expect(duckdbFailure(own, null)).toBe(own);
  });

  it('stops the other query of a pair when one fails, and waits for both', async () => {
    let stopped = 0;
    let finish!: () => void;
    const slow = new Promise<string>((resolve) => (finish = () => resolve('late')));
    const both = bothSettled(Promise.reject(new Error('first')), slow, () => {
      stopped += 1;
      finish();
    });
    await expect(both).rejects.toThrow('first');
    expect(stopped).toBe(1);
  });
});
