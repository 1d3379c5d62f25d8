CREATE TABLE "studio_extracts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"format" text NOT NULL,
	"bytes" bigint NOT NULL,
	"rows" bigint NOT NULL,
	"columns" jsonb NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "studio_extracts_format_check" CHECK ("studio_extracts"."format" in ('csv', 'parquet'))
);
--> statement-breakpoint
ALTER TABLE "studio_extracts" ADD CONSTRAINT "studio_extracts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studio_extracts" ADD CONSTRAINT "studio_extracts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "studio_extracts_tenant_id_name_unique" ON "studio_extracts" USING btree ("tenant_id","name");--> statement-breakpoint
-- The permission of this change, seeded as 0002 seeded the first ones (packages/contract
-- src/permissions.ts lists it; a test compares the two).
INSERT INTO "permissions" ("name", "description") VALUES
  ('sources:write', 'Upload and delete Studio extracts of the tenants one belongs to')
ON CONFLICT DO NOTHING;
