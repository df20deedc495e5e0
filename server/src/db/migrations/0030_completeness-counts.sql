CREATE TABLE "period_report_counts" (
	"period_id" integer NOT NULL,
	"status" integer NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "period_report_counts_period_id_status_pk" PRIMARY KEY("period_id","status")
);
--> statement-breakpoint
ALTER TABLE "period_report_counts" ADD CONSTRAINT "period_report_counts_period_id_periods_id_fk" FOREIGN KEY ("period_id") REFERENCES "public"."periods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Hand-written: the counts are kept by the changes that move them, as deltas (n = n + delta), so
-- that concurrent transactions in one period add up instead of overwriting each other. A report
-- counts when its company is not disabled at the period's end (countedCompany in
-- statistics.cells.ts: the statistics' coverage), so disabling a company or moving a period's end
-- moves the counts too. Changes are summed per (period, status) and applied in key order.
CREATE OR REPLACE FUNCTION period_report_counted(company integer, period integer) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT co.disabled_at IS NULL OR co.disabled_at >= ((p.ends_on + 1)::timestamp AT TIME ZONE 'UTC')
  FROM companies co, periods p WHERE co.id = company AND p.id = period;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION period_report_counts_apply(deltas jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO period_report_counts (period_id, status, n)
  SELECT d.period_id, d.status, sum(d.delta)::int
  FROM jsonb_to_recordset(deltas) AS d(period_id integer, status integer, delta integer)
  WHERE EXISTS (SELECT 1 FROM periods p WHERE p.id = d.period_id)
  GROUP BY d.period_id, d.status HAVING sum(d.delta) <> 0
  ORDER BY d.period_id, d.status
  ON CONFLICT (period_id, status) DO UPDATE SET n = period_report_counts.n + excluded.n;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION period_report_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM period_report_counts_apply(coalesce((
    SELECT jsonb_agg(jsonb_build_object('period_id', r.period_id, 'status', r.status, 'delta', 1))
    FROM added r WHERE period_report_counted(r.company_id, r.period_id)), '[]'));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION period_report_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM period_report_counts_apply(coalesce((
    SELECT jsonb_agg(jsonb_build_object('period_id', r.period_id, 'status', r.status, 'delta', -1))
    FROM removed r WHERE period_report_counted(r.company_id, r.period_id)), '[]'));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION period_report_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM period_report_counts_apply(coalesce((
    SELECT jsonb_agg(x) FROM (
      SELECT jsonb_build_object('period_id', o.period_id, 'status', o.status, 'delta', -1) AS x
      FROM before_rows o JOIN after_rows n ON n.id = o.id
      WHERE (o.period_id, o.company_id, o.status) IS DISTINCT FROM (n.period_id, n.company_id, n.status)
        AND period_report_counted(o.company_id, o.period_id)
      UNION ALL
      SELECT jsonb_build_object('period_id', n.period_id, 'status', n.status, 'delta', 1)
      FROM before_rows o JOIN after_rows n ON n.id = o.id
      WHERE (o.period_id, o.company_id, o.status) IS DISTINCT FROM (n.period_id, n.company_id, n.status)
        AND period_report_counted(n.company_id, n.period_id)
    ) changed), '[]'));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER period_report_counts_insert AFTER INSERT ON reports REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION period_report_counts_insert();
--> statement-breakpoint
CREATE TRIGGER period_report_counts_delete AFTER DELETE ON reports REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION period_report_counts_delete();
--> statement-breakpoint
CREATE TRIGGER period_report_counts_update AFTER UPDATE ON reports REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows FOR EACH STATEMENT EXECUTE FUNCTION period_report_counts_update();
--> statement-breakpoint
-- A company disabled or enabled again: its reports of the periods whose end lies between the two
-- dates stop or start counting.
CREATE OR REPLACE FUNCTION period_report_counts_company() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM period_report_counts_apply(coalesce((
    SELECT jsonb_agg(jsonb_build_object('period_id', r.period_id, 'status', r.status, 'delta', now_counted - was_counted))
    FROM (
      SELECT r.period_id, r.status,
        (NEW.disabled_at IS NULL OR NEW.disabled_at >= ((p.ends_on + 1)::timestamp AT TIME ZONE 'UTC'))::int AS now_counted,
        (OLD.disabled_at IS NULL OR OLD.disabled_at >= ((p.ends_on + 1)::timestamp AT TIME ZONE 'UTC'))::int AS was_counted
      FROM reports r JOIN periods p ON p.id = r.period_id WHERE r.company_id = NEW.id
    ) r WHERE now_counted <> was_counted), '[]'));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER period_report_counts_company AFTER UPDATE OF disabled_at ON companies FOR EACH ROW
  WHEN (OLD.disabled_at IS DISTINCT FROM NEW.disabled_at) EXECUTE FUNCTION period_report_counts_company();
--> statement-breakpoint
-- A period's end moved: its reports of companies disabled between the two ends move too.
CREATE OR REPLACE FUNCTION period_report_counts_period() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM period_report_counts_apply(coalesce((
    SELECT jsonb_agg(jsonb_build_object('period_id', NEW.id, 'status', r.status, 'delta', now_counted - was_counted))
    FROM (
      SELECT r.status,
        (co.disabled_at IS NULL OR co.disabled_at >= ((NEW.ends_on + 1)::timestamp AT TIME ZONE 'UTC'))::int AS now_counted,
        (co.disabled_at IS NULL OR co.disabled_at >= ((OLD.ends_on + 1)::timestamp AT TIME ZONE 'UTC'))::int AS was_counted
      FROM reports r JOIN companies co ON co.id = r.company_id WHERE r.period_id = NEW.id
    ) r WHERE now_counted <> was_counted), '[]'));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER period_report_counts_period AFTER UPDATE OF ends_on ON periods FOR EACH ROW
  WHEN (OLD.ends_on IS DISTINCT FROM NEW.ends_on) EXECUTE FUNCTION period_report_counts_period();
--> statement-breakpoint
INSERT INTO period_report_counts (period_id, status, n)
SELECT r.period_id, r.status, count(*)::int
FROM reports r JOIN periods p ON p.id = r.period_id JOIN companies co ON co.id = r.company_id
WHERE co.disabled_at IS NULL OR co.disabled_at >= ((p.ends_on + 1)::timestamp AT TIME ZONE 'UTC')
GROUP BY r.period_id, r.status;
