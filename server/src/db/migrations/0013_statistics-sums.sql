CREATE TABLE "statistics_sum_cells" (
	"sum_id" integer NOT NULL,
	"dimension" text NOT NULL,
	"key_id" integer NOT NULL,
	"volume" numeric,
	"value" numeric,
	"volume_ly" numeric,
	"value_ly" numeric,
	"ytd_volume" numeric,
	"ytd_value" numeric,
	"ytd_volume_ly" numeric,
	"ytd_value_ly" numeric,
	"contributors" integer,
	"primary_confidential" boolean NOT NULL,
	CONSTRAINT "statistics_sum_cells_sum_id_dimension_key_id_pk" PRIMARY KEY("sum_id","dimension","key_id")
);
--> statement-breakpoint
CREATE TABLE "statistics_sums" (
	"id" serial PRIMARY KEY NOT NULL,
	"signature" text NOT NULL,
	"period_ids" integer[] NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "statistics_sums_signature_unique" UNIQUE("signature")
);
--> statement-breakpoint
ALTER TABLE "statistics_sum_cells" ADD CONSTRAINT "statistics_sum_cells_sum_id_statistics_sums_id_fk" FOREIGN KEY ("sum_id") REFERENCES "public"."statistics_sums"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "statistics_sums_period_ids_idx" ON "statistics_sums" USING gin ("period_ids");
--> statement-breakpoint
-- Hand-written (issue 10): a set of sums counts the cells of its periods as they were when it was
-- built, so any change to those cells deletes it (an approval grows them, a rebuild replaces them,
-- a deleted period takes them along); the next read builds it again. One statement-level trigger
-- per event: transition tables allow one event a trigger.
CREATE OR REPLACE FUNCTION statistics_sums_invalidate_cells() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM statistics_sums WHERE period_ids && (SELECT coalesce(array_agg(DISTINCT period_id), '{}') FROM changed);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER statistics_sums_cells_insert AFTER INSERT ON statistics_cells REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION statistics_sums_invalidate_cells();
--> statement-breakpoint
CREATE TRIGGER statistics_sums_cells_update AFTER UPDATE ON statistics_cells REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION statistics_sums_invalidate_cells();
--> statement-breakpoint
CREATE TRIGGER statistics_sums_cells_delete AFTER DELETE ON statistics_cells REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION statistics_sums_invalidate_cells();
--> statement-breakpoint
-- The rates and the confidentiality settings are part of a set's signature, so a change never
-- serves old sums; deleting every set when they change keeps sets no read can ask for from piling up.
CREATE OR REPLACE FUNCTION statistics_sums_invalidate_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM statistics_sums;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER statistics_sums_conversions AFTER INSERT OR UPDATE OR DELETE ON currency_conversions FOR EACH STATEMENT EXECUTE FUNCTION statistics_sums_invalidate_all();
--> statement-breakpoint
CREATE TRIGGER statistics_sums_settings AFTER INSERT OR UPDATE OR DELETE ON organization_settings FOR EACH STATEMENT EXECUTE FUNCTION statistics_sums_invalidate_all();
