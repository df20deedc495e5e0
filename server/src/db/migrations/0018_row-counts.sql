-- Generated: the column. Hand-written below (issue 21): a report list showed each report's row
-- count by counting its rows (an approver's list of 100 reports of 500 rows counted 50,000 index
-- entries per read). Each row set now keeps its count, maintained per statement on report_rows.
ALTER TABLE "report_row_sets" ADD COLUMN "row_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE report_row_sets s SET row_count = c.n
  FROM (SELECT row_set_id, count(*)::int AS n FROM report_rows GROUP BY row_set_id) c
  WHERE c.row_set_id = s.id;--> statement-breakpoint
CREATE FUNCTION report_rows_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE report_row_sets s SET row_count = s.row_count + c.n
    FROM (SELECT row_set_id, count(*)::int AS n FROM new_rows GROUP BY row_set_id) c
    WHERE c.row_set_id = s.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION report_rows_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE report_row_sets s SET row_count = s.row_count - c.n
    FROM (SELECT row_set_id, count(*)::int AS n FROM old_rows GROUP BY row_set_id) c
    WHERE c.row_set_id = s.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A row moved to another set (no code does it; a hand-made update might).
CREATE FUNCTION report_rows_count_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE report_row_sets s SET row_count = s.row_count + c.n
    FROM (
      SELECT row_set_id, sum(n)::int AS n FROM (
        SELECT row_set_id, 1 AS n FROM new_rows UNION ALL SELECT row_set_id, -1 FROM old_rows
      ) moved GROUP BY row_set_id
    ) c
    WHERE c.row_set_id = s.id AND c.n <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER report_rows_count_insert AFTER INSERT ON report_rows
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_rows_count_insert();
--> statement-breakpoint
CREATE TRIGGER report_rows_count_delete AFTER DELETE ON report_rows
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION report_rows_count_delete();
--> statement-breakpoint
CREATE TRIGGER report_rows_count_update AFTER UPDATE ON report_rows
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_rows_count_update();
