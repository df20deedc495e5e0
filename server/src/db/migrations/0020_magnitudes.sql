ALTER TABLE "statistics_cells" ADD COLUMN "volume_contributors" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "statistics_cells" ADD COLUMN "value_contributors" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "statistics_cells" ADD COLUMN "abs_volume" numeric;--> statement-breakpoint
ALTER TABLE "statistics_cells" ADD COLUMN "abs_value" numeric;--> statement-breakpoint
-- Hand-written: the confidentiality rules are judged on magnitudes now (docs/architecture.md §8):
-- contributors per measure leave out zeros and empty values, dominance compares absolute figures.
-- Every stored cell and every kept sum was judged the old way: the cells are rebuilt on their
-- next read (a period without a statistics_periods row is), the sums kept anew.
DELETE FROM "statistics_sums";--> statement-breakpoint
DELETE FROM "statistics_periods";
