CREATE TABLE "period_reminders" (
	"period_id" integer NOT NULL,
	"kind" text NOT NULL,
	"due_on" date NOT NULL,
	"communication_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "period_reminders_period_id_kind_pk" PRIMARY KEY("period_id","kind"),
	CONSTRAINT "period_reminders_kind_check" CHECK ("period_reminders"."kind" in ('before', 'after'))
);
--> statement-breakpoint
ALTER TABLE "communication_deliveries" ADD COLUMN "locale" text;--> statement-breakpoint
ALTER TABLE "communications" ADD COLUMN "reminder" text;--> statement-breakpoint
ALTER TABLE "communications" ADD COLUMN "texts" jsonb;--> statement-breakpoint
ALTER TABLE "period_reminders" ADD CONSTRAINT "period_reminders_period_id_periods_id_fk" FOREIGN KEY ("period_id") REFERENCES "public"."periods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "period_reminders" ADD CONSTRAINT "period_reminders_communication_id_communications_id_fk" FOREIGN KEY ("communication_id") REFERENCES "public"."communications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "communications" ADD CONSTRAINT "communications_reminder_check" CHECK ("communications"."reminder" in ('before', 'after'));