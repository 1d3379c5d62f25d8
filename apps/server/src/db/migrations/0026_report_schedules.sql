CREATE TABLE "report_schedule_runs" (
	"schedule_id" uuid NOT NULL,
	"period" text NOT NULL,
	"outcome" text NOT NULL,
	"ran_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_schedule_runs_schedule_id_period_pk" PRIMARY KEY("schedule_id","period")
);
--> statement-breakpoint
CREATE TABLE "report_schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid,
	"report_id" uuid NOT NULL,
	"created_by" uuid NOT NULL,
	"frequency" text NOT NULL,
	"time" text NOT NULL,
	"time_zone" text NOT NULL,
	"weekday" integer,
	"day_of_month" integer,
	"member_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"addresses" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"alert_block" text,
	"alert_condition" text,
	"alert_last_value" text,
	"status" text DEFAULT 'active' NOT NULL,
	"status_reason" text,
	"next_run_at" timestamp with time zone NOT NULL,
	"claim_token" uuid,
	"claimed_until" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_schedules_frequency_check" CHECK ("report_schedules"."frequency" in ('daily', 'weekly', 'monthly')),
	CONSTRAINT "report_schedules_status_check" CHECK ("report_schedules"."status" in ('active', 'paused', 'stopped'))
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "attachments" jsonb;--> statement-breakpoint
ALTER TABLE "report_schedule_runs" ADD CONSTRAINT "report_schedule_runs_schedule_id_report_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."report_schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_schedules" ADD CONSTRAINT "report_schedules_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_schedules" ADD CONSTRAINT "report_schedules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_schedules_due_idx" ON "report_schedules" USING btree ("status","next_run_at");--> statement-breakpoint
CREATE INDEX "report_schedules_report_id_idx" ON "report_schedules" USING btree ("report_id");--> statement-breakpoint
CREATE INDEX "report_schedules_created_by_idx" ON "report_schedules" USING btree ("created_by");