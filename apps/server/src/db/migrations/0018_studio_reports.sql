CREATE TABLE "report_versions" (
	"report_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"definition" text NOT NULL,
	"title" text NOT NULL,
	"author_id" uuid,
	"restored_from" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_versions_report_id_version_pk" PRIMARY KEY("report_id","version"),
	CONSTRAINT "report_versions_version_check" CHECK ("report_versions"."version" >= 1)
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"source" text NOT NULL,
	"current_version" integer NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reports_source_check" CHECK ("reports"."source" in ('demo', 'tenant', 'extract'))
);
--> statement-breakpoint
ALTER TABLE "report_versions" ADD CONSTRAINT "report_versions_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_versions" ADD CONSTRAINT "report_versions_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reports_tenant_id_slug_unique" ON "reports" USING btree ("tenant_id","slug");--> statement-breakpoint
CREATE INDEX "reports_tenant_id_title_idx" ON "reports" USING btree ("tenant_id","title","id");--> statement-breakpoint
-- The permission of this change, seeded as 0002 seeded the first ones (packages/contract
-- src/permissions.ts lists it; a test compares the two).
INSERT INTO "permissions" ("name", "description") VALUES
  ('reports:write', 'Create, change, delete and restore Studio reports of the tenants one belongs to')
ON CONFLICT DO NOTHING;
