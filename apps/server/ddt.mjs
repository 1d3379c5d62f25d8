import { DuckDBInstance } from '@duckdb/node-api';
import { writeFileSync } from 'node:fs';
writeFileSync('/tmp/ddt/a.csv', 'x,y\n1,hello\n2,world\n');
const inst = await DuckDBInstance.create('/tmp/ddt/t.duckdb', { threads: '2', memory_limit: '256MB' });
const c = await inst.connect();
const q = async (sql) => { try { const r = await c.runAndReadAll(sql); return r.getRowsJson(); } catch (e) { return 'ERR ' + e.message.slice(0, 200); } };
console.log(await q("SET allowed_directories = ['/tmp/ddt/']"));
console.log(await q("SET enable_external_access = false"));
console.log(await q("SET lock_configuration = true"));
console.log(await q("CREATE OR REPLACE TABLE a AS SELECT * FROM read_csv('/tmp/ddt/a.csv')"));
console.log(await q("SELECT * FROM read_csv('/etc/passwd')"));
console.log(await q("SELECT * FROM a"));
console.log(await q("SET memory_limit='1GB'"));
console.log(await q("SELECT * FROM duckdb_settings() where name in ('temp_directory','allowed_directories')"));
for (const s of ["select 1; select 2", "insert into a values (1,'x')", "PRAGMA version", "SET x=1", "COPY a TO '/tmp/x.csv'", "ATTACH '/tmp/x.db'", "INSTALL httpfs", "LOAD httpfs", "VALUES (1),(2)", "WITH t AS (select 1 x) select * from t", "FROM a", "DESCRIBE a", "SHOW TABLES", "SUMMARIZE a", "select count(*), count(x), x like 'a%', x in (1,2), x between 1 and 2, case when x then 1 end, x::int, try_cast(x as int), [1,2][1], {'a':1}, $1, ?", "select * from 'f.csv'", "select * from main.a, system.main.duckdb_settings(), information_schema.tables", "pivot a on x using sum(y)", "select * from query('select 1')", "explain select 1", "CALL pragma_version()", "select getvariable('x'), x ILIKE 'a', x glob 'a*', x similar to 'a', x ~~~ 'b' from a", "select row_number() over (partition by x order by y) from a", "select * from a where x > $n and y = $m", "select 1 from a, lateral (select * from range(10))", "select list_transform([1], lambda x: x+1), [y for y in [1]]"]) {
  const r = await q(`select json_serialize_sql(${"'" + s.replace(/'/g, "''") + "'"})`);
  console.log('###', s, '\n', typeof r === 'string' ? r : String(r[0][0]).slice(0, 1800));
}
const t0 = Date.now();
setTimeout(() => c.interrupt(), 300);
console.log(await q("select count(*) from range(100000000000) t(i) where hash(i) % 7 = 1"), Date.now() - t0);
console.log(await q("select 42"));
