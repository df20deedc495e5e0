CREATE TABLE "statistics_publication_cells" (
	"publication_id" integer NOT NULL,
	"dimension" text NOT NULL,
	"key_id" integer NOT NULL,
	"volume" numeric,
	"value" numeric,
	"contributors" integer NOT NULL,
	"max_volume" numeric,
	"max_value" numeric,
	"primary_confidential" boolean NOT NULL,
	"hidden" boolean NOT NULL,
	"code_ids" integer[],
	CONSTRAINT "statistics_publication_cells_publication_id_dimension_key_id_pk" PRIMARY KEY("publication_id","dimension","key_id"),
	CONSTRAINT "statistics_publication_cells_dimension_check" CHECK ("statistics_publication_cells"."dimension" in ('code', 'code_group', 'code_section', 'total'))
);
--> statement-breakpoint
CREATE TABLE "statistics_publications" (
	"id" serial PRIMARY KEY NOT NULL,
	"period_id" integer NOT NULL,
	"number" integer NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_by" integer,
	"company_ids" integer[] NOT NULL,
	"row_set_ids" integer[] NOT NULL,
	"min_contributors" integer NOT NULL,
	"dominance_percentage" numeric NOT NULL,
	"protection_percentage" numeric NOT NULL,
	"approved" integer NOT NULL,
	"expected" integer NOT NULL,
	"primary_cells" integer NOT NULL,
	"hidden_cells" integer NOT NULL,
	"unprotectable" integer NOT NULL,
	"decided_ms" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "statistics_sum_cells" RENAME COLUMN "primary_confidential" TO "confidential";--> statement-breakpoint
ALTER TABLE "statistics_publication_cells" ADD CONSTRAINT "statistics_publication_cells_publication_id_statistics_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."statistics_publications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statistics_publications" ADD CONSTRAINT "statistics_publications_period_id_periods_id_fk" FOREIGN KEY ("period_id") REFERENCES "public"."periods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statistics_publications" ADD CONSTRAINT "statistics_publications_published_by_users_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "statistics_publications_period_number_unique" ON "statistics_publications" USING btree ("period_id","number");--> statement-breakpoint
-- Hand-written (issue 19): kept sums said whether a cell broke the rules; they now say whether it
-- is confidential under the published pattern, and their signatures name the publications they read.
DELETE FROM "statistics_sums";
