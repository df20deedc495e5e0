-- Rows belong to row sets; a report points at the set that holds its accepted rows (schema.ts).
CREATE TABLE "report_row_sets" (
	"id" serial PRIMARY KEY NOT NULL,
	"report_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_rows" ADD COLUMN "row_set_id" integer;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "row_set_id" integer;--> statement-breakpoint
ALTER TABLE "report_row_sets" ADD CONSTRAINT "report_row_sets_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_row_sets_report_idx" ON "report_row_sets" USING btree ("report_id");--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_row_set_id_report_row_sets_id_fk" FOREIGN KEY ("row_set_id") REFERENCES "public"."report_row_sets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Existing rows: one set per report that has rows, made the report's current set.
INSERT INTO "report_row_sets" ("report_id") SELECT DISTINCT "report_id" FROM "report_rows" ORDER BY 1;--> statement-breakpoint
UPDATE "reports" r SET "row_set_id" = s."id" FROM "report_row_sets" s WHERE s."report_id" = r."id";--> statement-breakpoint
ALTER TABLE "report_rows" DISABLE TRIGGER "report_rows_check_update";--> statement-breakpoint
UPDATE "report_rows" rr SET "row_set_id" = r."row_set_id" FROM "reports" r WHERE r."id" = rr."report_id";--> statement-breakpoint
ALTER TABLE "report_rows" ENABLE TRIGGER "report_rows_check_update";--> statement-breakpoint
ALTER TABLE "report_rows" ALTER COLUMN "row_set_id" SET NOT NULL;
