CREATE TABLE "imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"report_id" integer NOT NULL,
	"user_id" integer,
	"file_id" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"report_status_before" integer NOT NULL,
	"row_count" integer,
	"error_count" integer DEFAULT 0 NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "imports_uuid_unique" UNIQUE("uuid"),
	CONSTRAINT "imports_status_check" CHECK ("imports"."status" in ('queued', 'processing', 'invalid', 'done', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "periods" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"market_id" integer NOT NULL,
	"title" text NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"deadline" date,
	"status" text DEFAULT 'draft' NOT NULL,
	"opened_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"published_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "periods_uuid_unique" UNIQUE("uuid"),
	CONSTRAINT "periods_status_check" CHECK ("periods"."status" in ('draft', 'open', 'closed')),
	CONSTRAINT "periods_dates_check" CHECK ("periods"."ends_on" >= "periods"."starts_on")
);
--> statement-breakpoint
CREATE TABLE "preflights" (
	"id" serial PRIMARY KEY NOT NULL,
	"report_id" integer NOT NULL,
	"severity" integer NOT NULL,
	"results" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_rows" (
	"report_id" integer NOT NULL,
	"code_id" integer NOT NULL,
	"volume" numeric(20, 4),
	"value" numeric(20, 4),
	CONSTRAINT "report_rows_report_id_code_id_pk" PRIMARY KEY("report_id","code_id")
);
--> statement-breakpoint
CREATE TABLE "report_status_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"report_id" integer NOT NULL,
	"user_id" integer,
	"from_status" integer,
	"to_status" integer NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"period_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"status" integer DEFAULT 20 NOT NULL,
	"submitted_at" timestamp with time zone,
	"approved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reports_uuid_unique" UNIQUE("uuid"),
	CONSTRAINT "reports_status_check" CHECK ("reports"."status" in (10, 11, 20, 30, 40, 50, 60))
);
--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "periods" ADD CONSTRAINT "periods_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "preflights" ADD CONSTRAINT "preflights_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_rows" ADD CONSTRAINT "report_rows_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_rows" ADD CONSTRAINT "report_rows_code_id_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_status_changes" ADD CONSTRAINT "report_status_changes_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_status_changes" ADD CONSTRAINT "report_status_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_period_id_periods_id_fk" FOREIGN KEY ("period_id") REFERENCES "public"."periods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "imports_report_idx" ON "imports" USING btree ("report_id");--> statement-breakpoint
CREATE UNIQUE INDEX "periods_market_title_unique" ON "periods" USING btree ("market_id",lower("title"));--> statement-breakpoint
CREATE INDEX "preflights_report_idx" ON "preflights" USING btree ("report_id");--> statement-breakpoint
CREATE INDEX "report_status_changes_report_idx" ON "report_status_changes" USING btree ("report_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reports_period_company_unique" ON "reports" USING btree ("period_id","company_id");--> statement-breakpoint
CREATE INDEX "reports_company_idx" ON "reports" USING btree ("company_id");