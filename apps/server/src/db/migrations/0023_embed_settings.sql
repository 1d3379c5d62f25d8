CREATE TABLE "embed_settings" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"origins" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"secret_sealed" text,
	"secret_created_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "embed_settings" ADD CONSTRAINT "embed_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The permission of this change, seeded as 0002 seeded the first ones (packages/contract
-- src/permissions.ts lists it; a test compares the two).
INSERT INTO "permissions" ("name", "description") VALUES
  ('embed:manage', 'Choose the sites that may embed the reports of the tenants one belongs to, and rotate their embed secret')
ON CONFLICT DO NOTHING;
