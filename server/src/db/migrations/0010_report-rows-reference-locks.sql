-- Hand-written (issue 9, row-set integrity): the statement-level checks of report_rows (0004,
-- 0006) take the locks that make them hold under concurrency, as a foreign key's would; see
-- docs/decisions.md "Report rows and concurrent deletes".
--
-- Row sets: the insert/update check locks the set(s) it writes into FOR KEY SHARE (one row per
-- statement as a rule), as a foreign key locks its referenced row. A concurrent delete of the set
-- waits for the writer to commit and then deletes its rows too (its trigger reads with a fresh
-- snapshot); a writer coming after an uncommitted delete waits for it and then finds no set.
CREATE OR REPLACE FUNCTION report_rows_check_references() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  first_set integer;
  last_set integer;
  sets_found integer;
BEGIN
  -- A statement writes into one set as a rule: then one row is looked up and locked.
  SELECT min(row_set_id), max(row_set_id) INTO first_set, last_set FROM new_rows;
  IF first_set = last_set THEN
    PERFORM 1 FROM report_row_sets s WHERE s.id = first_set FOR KEY SHARE;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'report_rows: unknown row set' USING ERRCODE = '23503';
    END IF;
  ELSIF first_set IS NOT NULL THEN
    SELECT count(*) INTO sets_found FROM (
      SELECT 1 FROM report_row_sets s WHERE s.id IN (SELECT row_set_id FROM new_rows) ORDER BY s.id FOR KEY SHARE
    ) locked;
    IF sets_found <> (SELECT count(DISTINCT row_set_id) FROM new_rows) THEN
      RAISE EXCEPTION 'report_rows: unknown row set' USING ERRCODE = '23503';
    END IF;
  END IF;
  -- Codes are not locked row by row (100,000 row locks per import): a delete of a code, or a
  -- change of its id, locks report_rows against writers instead (below).
  IF EXISTS (SELECT 1 FROM new_rows n WHERE NOT EXISTS (SELECT 1 FROM codes c WHERE c.id = n.code_id)) THEN
    RAISE EXCEPTION 'report_rows: unknown code' USING ERRCODE = '23503';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Codes: before looking for rows of the deleted codes, wait for every transaction that has written
-- report_rows to end, and keep new writers out until this one ends (SHARE conflicts with the ROW
-- EXCLUSIVE lock an INSERT or UPDATE takes, and not with itself or with readers). A writer that
-- checked the code before this delete committed has then committed its rows, which this check
-- (a fresh snapshot, READ COMMITTED) sees; a writer that comes later checks after this commit and
-- no longer finds the code.
CREATE OR REPLACE FUNCTION codes_refuse_delete_with_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE report_rows IN SHARE MODE;
  IF EXISTS (SELECT 1 FROM report_rows rr WHERE rr.code_id IN (SELECT id FROM old_codes)) THEN
    RAISE EXCEPTION 'codes: still reported' USING ERRCODE = '23503';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An id that an update takes away is a delete for the rows that name it.
CREATE FUNCTION codes_refuse_id_change_with_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM old_codes o WHERE NOT EXISTS (SELECT 1 FROM new_codes n WHERE n.id = o.id)) THEN
    LOCK TABLE report_rows IN SHARE MODE;
    IF EXISTS (
      SELECT 1 FROM report_rows rr
      WHERE rr.code_id IN (SELECT o.id FROM old_codes o WHERE NOT EXISTS (SELECT 1 FROM new_codes n WHERE n.id = o.id))
    ) THEN
      RAISE EXCEPTION 'codes: still reported' USING ERRCODE = '23503';
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER codes_refuse_id_change_with_rows AFTER UPDATE ON codes
  REFERENCING OLD TABLE AS old_codes NEW TABLE AS new_codes FOR EACH STATEMENT EXECUTE FUNCTION codes_refuse_id_change_with_rows();
--> statement-breakpoint
-- TRUNCATE fires no delete trigger; a foreign key would refuse it while rows exist.
CREATE FUNCTION codes_refuse_truncate_with_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE report_rows IN SHARE MODE;
  IF EXISTS (SELECT 1 FROM report_rows) THEN
    RAISE EXCEPTION 'codes: still reported' USING ERRCODE = '23503';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER codes_refuse_truncate_with_rows BEFORE TRUNCATE ON codes
  FOR EACH STATEMENT EXECUTE FUNCTION codes_refuse_truncate_with_rows();
