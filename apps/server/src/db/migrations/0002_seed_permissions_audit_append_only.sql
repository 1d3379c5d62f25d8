-- The built-in permissions: exactly ALL_PERMISSIONS / PERMISSION_DESCRIPTIONS of packages/contract
-- (src/permissions.ts). A test compares the two; add a migration like this one when the list grows.
INSERT INTO "permissions" ("name", "description") VALUES
  ('users:read', 'List and read user accounts'),
  ('users:write', 'Create, update and delete user accounts'),
  ('roles:read', 'List roles, permissions and their assignments'),
  ('roles:write', 'Create, update and delete roles and permissions, and assign them'),
  ('tenants:read', 'List and read tenants'),
  ('tenants:write', 'Create, update and delete tenants, check their databases, manage members'),
  ('plans:write', 'Create, update and delete subscription plans'),
  ('contact:read', 'Read contact form submissions'),
  ('contact:write', 'Change the status of contact form submissions'),
  ('audit:read', 'Read the audit log')
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- The audit log is append-only: no code path updates or deletes it, and the database refuses to.
CREATE FUNCTION "audit_log_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only' USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_log_append_only"
  BEFORE UPDATE OR DELETE OR TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_refuse_change"();
