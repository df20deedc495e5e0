ALTER TABLE "statistics_publication_cells" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "statistics_sum_cells" ADD COLUMN "revised" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "statistics_sum_cells" ADD COLUMN "reason" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Kept sums are a cache (rebuilt on their next read): rebuilt now with the flags they lacked.
DELETE FROM "statistics_sums";--> statement-breakpoint
-- The reason of each hidden cell of the publications made so far. Publishing now judges
-- contributors and dominance exactly (per measure, on magnitudes); here a primary cell with fewer
-- companies than the minimum is taken as "contributors", any other as "dominance".
UPDATE "statistics_publication_cells" c SET "reason" = CASE
    WHEN EXISTS (
      SELECT 1 FROM "statistics_publications" s CROSS JOIN LATERAL jsonb_array_elements(s."unprotectable_cells") u
      WHERE s."id" = c."publication_id" AND u->>'kind' = 'cell' AND u->>'dimension' = c."dimension"
        AND (u->>'key_id')::int = c."key_id" AND (u->>'publication')::int = s."number" AND NOT (u ? 'period')
    ) THEN 'unprotectable'
    WHEN c."primary_confidential" AND c."contributors" < (SELECT s."min_contributors" FROM "statistics_publications" s WHERE s."id" = c."publication_id") THEN 'contributors'
    WHEN c."primary_confidential" THEN 'dominance'
    ELSE 'protection'
  END
WHERE c."hidden";
