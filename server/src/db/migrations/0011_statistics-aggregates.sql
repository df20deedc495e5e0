CREATE TABLE "statistics_cells" (
	"period_id" integer NOT NULL,
	"dimension" text NOT NULL,
	"key_id" integer NOT NULL,
	"volume" numeric,
	"value" numeric,
	"contributors" integer NOT NULL,
	"max_volume" numeric,
	"max_value" numeric,
	CONSTRAINT "statistics_cells_period_id_dimension_key_id_pk" PRIMARY KEY("period_id","dimension","key_id"),
	CONSTRAINT "statistics_cells_dimension_check" CHECK ("statistics_cells"."dimension" in ('code', 'code_group', 'code_section', 'company', 'total'))
);
--> statement-breakpoint
CREATE TABLE "statistics_periods" (
	"period_id" integer PRIMARY KEY NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "statistics_cells" ADD CONSTRAINT "statistics_cells_period_id_periods_id_fk" FOREIGN KEY ("period_id") REFERENCES "public"."periods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statistics_periods" ADD CONSTRAINT "statistics_periods_period_id_periods_id_fk" FOREIGN KEY ("period_id") REFERENCES "public"."periods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Hand-written (issue 10): what the cells of a period depend on, besides its approved reports,
-- invalidates them (deletes the period's statistics_periods row); the next read rebuilds them
-- (docs/performance.md "Statistics").
CREATE OR REPLACE FUNCTION statistics_invalidate_organization(organization integer) RETURNS void LANGUAGE sql AS $$
  DELETE FROM statistics_periods sp USING periods p, markets m
  WHERE sp.period_id = p.id AND p.market_id = m.id AND m.organization_id = organization;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION statistics_invalidate_company() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.disabled_at IS DISTINCT FROM OLD.disabled_at THEN
    DELETE FROM statistics_periods sp USING reports r WHERE r.company_id = NEW.id AND sp.period_id = r.period_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER statistics_invalidate_company AFTER UPDATE OF disabled_at ON companies FOR EACH ROW EXECUTE FUNCTION statistics_invalidate_company();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION statistics_invalidate_period() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.ends_on IS DISTINCT FROM OLD.ends_on OR NEW.market_id IS DISTINCT FROM OLD.market_id THEN
    DELETE FROM statistics_periods WHERE period_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER statistics_invalidate_period AFTER UPDATE OF ends_on, market_id ON periods FOR EACH ROW EXECUTE FUNCTION statistics_invalidate_period();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION statistics_invalidate_by_code() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- code_group_codes (insert, delete, update) and codes (a changed code text moves it between sections).
  IF TG_OP <> 'INSERT' THEN
    PERFORM statistics_invalidate_organization(c.organization_id) FROM codes c WHERE c.id = OLD.code_id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM statistics_invalidate_organization(c.organization_id) FROM codes c WHERE c.id = NEW.code_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER statistics_invalidate_code_groups AFTER INSERT OR UPDATE OR DELETE ON code_group_codes FOR EACH ROW EXECUTE FUNCTION statistics_invalidate_by_code();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION statistics_invalidate_code() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.code IS DISTINCT FROM OLD.code THEN
    PERFORM statistics_invalidate_organization(NEW.organization_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER statistics_invalidate_code AFTER UPDATE OF code ON codes FOR EACH ROW EXECUTE FUNCTION statistics_invalidate_code();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION statistics_invalidate_section() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'code_sections' THEN
    PERFORM statistics_invalidate_organization(CASE WHEN TG_OP = 'DELETE' THEN OLD.organization_id ELSE NEW.organization_id END);
  ELSE
    PERFORM statistics_invalidate_organization(s.organization_id) FROM code_sections s
    WHERE s.id = CASE WHEN TG_OP = 'DELETE' THEN OLD.code_section_id ELSE NEW.code_section_id END;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER statistics_invalidate_code_sections AFTER INSERT OR UPDATE OR DELETE ON code_sections FOR EACH ROW EXECUTE FUNCTION statistics_invalidate_section();
--> statement-breakpoint
CREATE TRIGGER statistics_invalidate_code_section_markets AFTER INSERT OR DELETE ON code_section_markets FOR EACH ROW EXECUTE FUNCTION statistics_invalidate_section();
