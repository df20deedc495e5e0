CREATE TABLE "history_import_errors" (
	"history_import_id" integer NOT NULL,
	"position" integer NOT NULL,
	"row" integer,
	"key" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"column_letter" text,
	"column_name" text,
	"cell" text,
	CONSTRAINT "history_import_errors_history_import_id_position_pk" PRIMARY KEY("history_import_id","position")
);
--> statement-breakpoint
CREATE UNLOGGED TABLE "history_import_rows" (
	"history_import_id" integer NOT NULL,
	"market_id" integer NOT NULL,
	"period_start" date NOT NULL,
	"company_id" integer NOT NULL,
	"code_id" integer NOT NULL,
	"volume" numeric(20, 4),
	"value" numeric(20, 4)
);
--> statement-breakpoint
CREATE TABLE "history_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" integer NOT NULL,
	"user_id" integer,
	"imported_by" integer,
	"market_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"file_id" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"data_rows" integer,
	"row_count" integer,
	"error_count" integer DEFAULT 0 NOT NULL,
	"plan" jsonb,
	"result" jsonb,
	"rows_read" integer DEFAULT 0 NOT NULL,
	"rows_done" integer DEFAULT 0 NOT NULL,
	"periods_done" integer DEFAULT 0 NOT NULL,
	"periods_total" integer DEFAULT 0 NOT NULL,
	"cancel_requested" boolean DEFAULT false NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"heartbeat_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "history_imports_uuid_unique" UNIQUE("uuid"),
	CONSTRAINT "history_imports_status_check" CHECK ("history_imports"."status" in ('queued', 'checking', 'checked', 'invalid', 'importing', 'imported', 'cancelled', 'failed', 'publishing', 'published'))
);
--> statement-breakpoint
ALTER TABLE "history_import_errors" ADD CONSTRAINT "history_import_errors_history_import_id_history_imports_id_fk" FOREIGN KEY ("history_import_id") REFERENCES "public"."history_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "history_imports" ADD CONSTRAINT "history_imports_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "history_imports" ADD CONSTRAINT "history_imports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "history_imports" ADD CONSTRAINT "history_imports_imported_by_users_id_fk" FOREIGN KEY ("imported_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "history_imports" ADD CONSTRAINT "history_imports_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "history_import_rows_period_idx" ON "history_import_rows" USING btree ("history_import_id","market_id","period_start");--> statement-breakpoint
CREATE INDEX "history_imports_organization_idx" ON "history_imports" USING btree ("organization_id");