-- Staged rows are read again from the file when an import step runs (again): none need keeping.
DELETE FROM "history_import_rows";--> statement-breakpoint
ALTER TABLE "history_import_rows" ADD COLUMN "code_ids" integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "history_import_rows" ADD COLUMN "volume_list" numeric(20, 4)[] NOT NULL;--> statement-breakpoint
ALTER TABLE "history_import_rows" ADD COLUMN "value_list" numeric(20, 4)[] NOT NULL;--> statement-breakpoint
ALTER TABLE "history_imports" ADD COLUMN "direct_digest" text;--> statement-breakpoint
ALTER TABLE "history_import_rows" DROP COLUMN "code_id";--> statement-breakpoint
ALTER TABLE "history_import_rows" DROP COLUMN "volume";--> statement-breakpoint
ALTER TABLE "history_import_rows" DROP COLUMN "value";