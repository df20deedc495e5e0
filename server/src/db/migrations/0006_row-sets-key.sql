ALTER TABLE "report_rows" DROP CONSTRAINT "report_rows_report_id_code_id_pk";--> statement-breakpoint
ALTER TABLE "report_rows" ADD CONSTRAINT "report_rows_row_set_id_code_id_pk" PRIMARY KEY("row_set_id","code_id");--> statement-breakpoint
-- Deleting a report deletes its row sets (foreign key), and deleting row sets deletes their rows.
DROP TRIGGER "reports_delete_rows" ON "reports";--> statement-breakpoint
DROP FUNCTION "reports_delete_rows"();--> statement-breakpoint
ALTER TABLE "report_rows" DROP COLUMN "report_id";--> statement-breakpoint
-- report_rows references row sets and codes; checked once per statement (see schema.ts).
CREATE OR REPLACE FUNCTION report_rows_check_references() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  first_set integer;
  last_set integer;
BEGIN
  -- A statement writes into one set as a rule: then one lookup checks it.
  SELECT min(row_set_id), max(row_set_id) INTO first_set, last_set FROM new_rows;
  IF first_set = last_set THEN
    IF NOT EXISTS (SELECT 1 FROM report_row_sets s WHERE s.id = first_set) THEN
      RAISE EXCEPTION 'report_rows: unknown row set' USING ERRCODE = '23503';
    END IF;
  ELSIF EXISTS (SELECT 1 FROM new_rows n WHERE NOT EXISTS (SELECT 1 FROM report_row_sets s WHERE s.id = n.row_set_id)) THEN
    RAISE EXCEPTION 'report_rows: unknown row set' USING ERRCODE = '23503';
  END IF;
  IF EXISTS (SELECT 1 FROM new_rows n WHERE NOT EXISTS (SELECT 1 FROM codes c WHERE c.id = n.code_id)) THEN
    RAISE EXCEPTION 'report_rows: unknown code' USING ERRCODE = '23503';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION report_row_sets_delete_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM report_rows WHERE row_set_id IN (SELECT id FROM old_sets);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER report_row_sets_delete_rows AFTER DELETE ON report_row_sets
  REFERENCING OLD TABLE AS old_sets FOR EACH STATEMENT EXECUTE FUNCTION report_row_sets_delete_rows();
