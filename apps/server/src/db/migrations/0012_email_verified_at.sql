ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
-- Accounts made before verification existed keep working as they did: they count as verified.
UPDATE "users" SET "email_verified_at" = "created_at";
