ALTER TABLE "import_errors" ADD COLUMN "column_letter" text;--> statement-breakpoint
ALTER TABLE "import_errors" ADD COLUMN "column_name" text;--> statement-breakpoint
ALTER TABLE "import_errors" ADD COLUMN "cell" text;