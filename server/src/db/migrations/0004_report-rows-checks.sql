-- report_rows references reports and codes; checked once per statement (see schema.ts).
CREATE FUNCTION report_rows_check_references() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows n WHERE NOT EXISTS (SELECT 1 FROM reports r WHERE r.id = n.report_id)) THEN
    RAISE EXCEPTION 'report_rows: unknown report' USING ERRCODE = '23503';
  END IF;
  IF EXISTS (SELECT 1 FROM new_rows n WHERE NOT EXISTS (SELECT 1 FROM codes c WHERE c.id = n.code_id)) THEN
    RAISE EXCEPTION 'report_rows: unknown code' USING ERRCODE = '23503';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER report_rows_check_insert AFTER INSERT ON report_rows
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_rows_check_references();
--> statement-breakpoint
CREATE TRIGGER report_rows_check_update AFTER UPDATE ON report_rows
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_rows_check_references();
--> statement-breakpoint
CREATE FUNCTION reports_delete_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM report_rows WHERE report_id IN (SELECT id FROM old_reports);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER reports_delete_rows AFTER DELETE ON reports
  REFERENCING OLD TABLE AS old_reports FOR EACH STATEMENT EXECUTE FUNCTION reports_delete_rows();
--> statement-breakpoint
CREATE FUNCTION codes_refuse_delete_with_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM report_rows rr WHERE rr.code_id IN (SELECT id FROM old_codes)) THEN
    RAISE EXCEPTION 'codes: still reported' USING ERRCODE = '23503';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER codes_refuse_delete_with_rows AFTER DELETE ON codes
  REFERENCING OLD TABLE AS old_codes FOR EACH STATEMENT EXECUTE FUNCTION codes_refuse_delete_with_rows();
