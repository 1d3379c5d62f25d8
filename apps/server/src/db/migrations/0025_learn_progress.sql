CREATE TABLE "learn_progress" (
	"user_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"lesson" text NOT NULL,
	"step" text NOT NULL,
	"done_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "learn_progress_user_id_tenant_id_lesson_step_pk" PRIMARY KEY("user_id","tenant_id","lesson","step"),
	CONSTRAINT "learn_progress_lesson_check" CHECK (length("learn_progress"."lesson") between 1 and 64),
	CONSTRAINT "learn_progress_step_check" CHECK (length("learn_progress"."step") between 1 and 64)
);
--> statement-breakpoint
ALTER TABLE "learn_progress" ADD CONSTRAINT "learn_progress_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learn_progress" ADD CONSTRAINT "learn_progress_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;