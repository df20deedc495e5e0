ALTER TABLE "report_rows" DROP CONSTRAINT "report_rows_report_id_reports_id_fk";
--> statement-breakpoint
ALTER TABLE "report_rows" DROP CONSTRAINT "report_rows_code_id_codes_id_fk";
