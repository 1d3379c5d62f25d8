CREATE TABLE "plan_role_grants" (
	"subscription_id" uuid NOT NULL,
	"role_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_role_grants_subscription_id_role_id_pk" PRIMARY KEY("subscription_id","role_id")
);
--> statement-breakpoint
CREATE TABLE "plan_roles" (
	"plan_id" uuid NOT NULL,
	"role_id" uuid NOT NULL,
	CONSTRAINT "plan_roles_plan_id_role_id_pk" PRIMARY KEY("plan_id","role_id")
);
--> statement-breakpoint
CREATE TABLE "sandbox_clocks" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"offset_seconds" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "plan_role_grants" ADD CONSTRAINT "plan_role_grants_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_role_grants" ADD CONSTRAINT "plan_role_grants_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_role_grants" ADD CONSTRAINT "plan_role_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_roles" ADD CONSTRAINT "plan_roles_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_roles" ADD CONSTRAINT "plan_roles_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_clocks" ADD CONSTRAINT "sandbox_clocks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plan_role_grants_user_role_idx" ON "plan_role_grants" USING btree ("user_id","role_id");--> statement-breakpoint
CREATE INDEX "plan_role_grants_role_idx" ON "plan_role_grants" USING btree ("role_id");--> statement-breakpoint
CREATE INDEX "plan_roles_role_idx" ON "plan_roles" USING btree ("role_id");