CREATE TABLE "code_mapping_versions" (
	"organization_id" integer PRIMARY KEY NOT NULL,
	"version" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "statistics_publications" ADD COLUMN "mapping_version" integer;--> statement-breakpoint
ALTER TABLE "code_mapping_versions" ADD CONSTRAINT "code_mapping_versions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- What a publication's groups and sections add up depends on which codes a group holds
-- (code_group_codes), a section's range and markets (code_sections, code_section_markets) and a
-- code's number (codes.code). Each change to them bumps its organization's version, in the
-- changing transaction (a row, so that a reader sees it exactly when the change is visible).
CREATE OR REPLACE FUNCTION code_mapping_bump(ids integer[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO code_mapping_versions (organization_id, version)
  SELECT o.id, 1 FROM organizations o WHERE o.id = ANY(ids)
  ORDER BY o.id
  ON CONFLICT (organization_id) DO UPDATE SET version = code_mapping_versions.version + 1;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION code_mapping_group_codes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM code_mapping_bump(array(
    SELECT DISTINCT coalesce(c.organization_id, g.organization_id) FROM changed x
    LEFT JOIN codes c ON c.id = x.code_id LEFT JOIN code_groups g ON g.id = x.code_group_id));
  RETURN NULL;
END $$;--> statement-breakpoint
-- Rows that name their organization (code_sections, codes).
CREATE OR REPLACE FUNCTION code_mapping_of_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM code_mapping_bump(array(SELECT DISTINCT organization_id FROM changed));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION code_mapping_section_markets() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM code_mapping_bump(array(SELECT DISTINCT s.organization_id FROM changed x JOIN code_sections s ON s.id = x.code_section_id));
  RETURN NULL;
END $$;--> statement-breakpoint
-- A code's number changed (its name or state does not move it between sections).
CREATE OR REPLACE FUNCTION code_mapping_code_numbers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM code_mapping_bump(array(
    SELECT DISTINCT o.organization_id FROM before_rows o JOIN after_rows n ON n.id = o.id WHERE o.code IS DISTINCT FROM n.code));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER code_mapping_group_codes_insert AFTER INSERT ON code_group_codes REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION code_mapping_group_codes();--> statement-breakpoint
CREATE TRIGGER code_mapping_group_codes_update AFTER UPDATE ON code_group_codes REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION code_mapping_group_codes();--> statement-breakpoint
CREATE TRIGGER code_mapping_group_codes_delete AFTER DELETE ON code_group_codes REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION code_mapping_group_codes();--> statement-breakpoint
CREATE TRIGGER code_mapping_sections_insert AFTER INSERT ON code_sections REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION code_mapping_of_rows();--> statement-breakpoint
CREATE TRIGGER code_mapping_sections_update AFTER UPDATE ON code_sections REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION code_mapping_of_rows();--> statement-breakpoint
CREATE TRIGGER code_mapping_sections_delete AFTER DELETE ON code_sections REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION code_mapping_of_rows();--> statement-breakpoint
CREATE TRIGGER code_mapping_section_markets_insert AFTER INSERT ON code_section_markets REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION code_mapping_section_markets();--> statement-breakpoint
CREATE TRIGGER code_mapping_section_markets_update AFTER UPDATE ON code_section_markets REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION code_mapping_section_markets();--> statement-breakpoint
CREATE TRIGGER code_mapping_section_markets_delete AFTER DELETE ON code_section_markets REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION code_mapping_section_markets();--> statement-breakpoint
CREATE TRIGGER code_mapping_codes_update AFTER UPDATE ON codes REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows FOR EACH STATEMENT EXECUTE FUNCTION code_mapping_code_numbers();--> statement-breakpoint
CREATE TRIGGER code_mapping_codes_delete AFTER DELETE ON codes REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION code_mapping_of_rows();
