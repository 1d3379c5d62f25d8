-- Exact row counts without counting (decision 023). Every insert, delete and update of a listed
-- table adds its net change to row_counts in the same statement, so in the same transaction: a
-- count read there is exactly what count(*) would answer, at every isolation level, because the
-- change and its count commit or roll back together. Each count is split in 16 stripes and a
-- connection writes the stripe of its backend pid: two writers wait on each other's row lock (until
-- the first commits) only when their pids share a stripe. Rows are upserted in (grain, scope) order,
-- so two writers never lock the same rows in opposite orders.
--
-- The trigger's arguments are its table's grains: the columns it is counted by, comma-separated,
-- '' for the whole table. lib/row-counts.ts declares the same grains, and a test compares them.
CREATE FUNCTION "row_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  grain text;
  scope text;
  parts text[] := '{}';
  my_stripe smallint := pg_backend_pid() % 16;
  zeroed_grains text[];
  zeroed_scopes jsonb[];
BEGIN
  FOREACH grain IN ARRAY TG_ARGV LOOP
    IF grain = '' THEN
      scope := '''{}''::jsonb';
    ELSE
      SELECT 'jsonb_build_object(' || string_agg(format('%L, r.%I', col, col), ', ') || ')'
        INTO scope
        FROM unnest(string_to_array(grain, ',')) AS col;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
      parts := parts || format('SELECT %L AS grain, %s AS scope, 1 AS delta FROM new_rows r', grain, scope);
    END IF;
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
      parts := parts || format('SELECT %L AS grain, %s AS scope, -1 AS delta FROM old_rows r', grain, scope);
    END IF;
  END LOOP;
  -- An update that moves no row between scopes nets to zero and writes (and locks) nothing.
  EXECUTE format(
    'WITH changed AS (
       INSERT INTO row_counts AS c (table_name, grain, scope, stripe, n)
       SELECT %L, grain, scope, %s, sum(delta) FROM (%s) AS deltas
       GROUP BY grain, scope HAVING sum(delta) <> 0
       ORDER BY grain, scope
       ON CONFLICT (table_name, grain, scope, stripe) DO UPDATE SET n = c.n + excluded.n
       RETURNING grain, scope, n)
     SELECT array_agg(grain), array_agg(scope) FROM changed WHERE n = 0',
    TG_TABLE_NAME, my_stripe, array_to_string(parts, ' UNION ALL '))
    INTO zeroed_grains, zeroed_scopes;
  -- A stripe back to zero leaves no row behind (a user whose transactions were all added and
  -- deleted through this connection). Stripes that only sum to zero stay: removing them would
  -- need the other stripes' locks.
  IF zeroed_grains IS NOT NULL THEN
    DELETE FROM row_counts AS c
      USING unnest(zeroed_grains, zeroed_scopes) AS z(grain, scope)
      WHERE c.table_name = TG_TABLE_NAME AND c.grain = z.grain AND c.scope = z.scope
        AND c.stripe = my_stripe AND c.n = 0;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION "row_counts_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM row_counts WHERE table_name = TG_TABLE_NAME;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "users_row_counts_insert" AFTER INSERT ON "users"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_apply"('');
--> statement-breakpoint
CREATE TRIGGER "users_row_counts_delete" AFTER DELETE ON "users"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_apply"('');
--> statement-breakpoint
CREATE TRIGGER "users_row_counts_truncate" AFTER TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_truncate"();
--> statement-breakpoint
CREATE TRIGGER "contact_submissions_row_counts_insert" AFTER INSERT ON "contact_submissions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_apply"('status');
--> statement-breakpoint
CREATE TRIGGER "contact_submissions_row_counts_update" AFTER UPDATE ON "contact_submissions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_apply"('status');
--> statement-breakpoint
CREATE TRIGGER "contact_submissions_row_counts_delete" AFTER DELETE ON "contact_submissions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_apply"('status');
--> statement-breakpoint
CREATE TRIGGER "contact_submissions_row_counts_truncate" AFTER TRUNCATE ON "contact_submissions"
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_truncate"();
--> statement-breakpoint
CREATE TRIGGER "transactions_row_counts_insert" AFTER INSERT ON "transactions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_apply"('user_id');
--> statement-breakpoint
CREATE TRIGGER "transactions_row_counts_update" AFTER UPDATE ON "transactions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_apply"('user_id');
--> statement-breakpoint
CREATE TRIGGER "transactions_row_counts_delete" AFTER DELETE ON "transactions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_apply"('user_id');
--> statement-breakpoint
CREATE TRIGGER "transactions_row_counts_truncate" AFTER TRUNCATE ON "transactions"
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_truncate"();
--> statement-breakpoint
-- Append-only (migration 0002 refuses UPDATE, DELETE and TRUNCATE): inserts are all there is.
CREATE TRIGGER "audit_log_row_counts_insert" AFTER INSERT ON "audit_log"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_apply"('target_type', 'action', 'actor_id');
--> statement-breakpoint
CREATE TRIGGER "tenants_row_counts_insert" AFTER INSERT ON "tenants"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_apply"('status');
--> statement-breakpoint
CREATE TRIGGER "tenants_row_counts_update" AFTER UPDATE ON "tenants"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_apply"('status');
--> statement-breakpoint
CREATE TRIGGER "tenants_row_counts_delete" AFTER DELETE ON "tenants"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_apply"('status');
--> statement-breakpoint
CREATE TRIGGER "tenants_row_counts_truncate" AFTER TRUNCATE ON "tenants"
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_truncate"();
--> statement-breakpoint
-- The rows already there. The triggers above exist from here on and their CREATE TRIGGER holds a
-- lock that keeps writers out until this migration commits, so nothing is counted twice or missed.
INSERT INTO "row_counts" ("table_name", "grain", "scope", "stripe", "n")
SELECT 'users', '', '{}'::jsonb, 0, count(*) FROM "users" HAVING count(*) > 0
UNION ALL
SELECT 'contact_submissions', 'status', jsonb_build_object('status', "status"), 0, count(*)
  FROM "contact_submissions" GROUP BY "status"
UNION ALL
SELECT 'transactions', 'user_id', jsonb_build_object('user_id', "user_id"), 0, count(*)
  FROM "transactions" GROUP BY "user_id"
UNION ALL
SELECT 'audit_log', 'action', jsonb_build_object('action', "action"), 0, count(*)
  FROM "audit_log" GROUP BY "action"
UNION ALL
SELECT 'audit_log', 'actor_id', jsonb_build_object('actor_id', "actor_id"), 0, count(*)
  FROM "audit_log" GROUP BY "actor_id"
UNION ALL
SELECT 'audit_log', 'target_type', jsonb_build_object('target_type', "target_type"), 0, count(*)
  FROM "audit_log" GROUP BY "target_type"
UNION ALL
SELECT 'tenants', 'status', jsonb_build_object('status', "status"), 0, count(*) FROM "tenants" GROUP BY "status";
