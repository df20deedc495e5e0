CREATE TABLE "statistics_estimate_rows" (
	"estimate_id" integer NOT NULL,
	"code_id" integer NOT NULL,
	"volume" numeric(20, 4),
	"value" numeric(20, 4),
	"volume_ratio" numeric NOT NULL,
	"value_ratio" numeric NOT NULL,
	CONSTRAINT "statistics_estimate_rows_estimate_id_code_id_pk" PRIMARY KEY("estimate_id","code_id")
);
--> statement-breakpoint
CREATE TABLE "statistics_estimates" (
	"id" serial PRIMARY KEY NOT NULL,
	"period_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"source_period_id" integer NOT NULL,
	"source_row_set_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "statistics_publication_cells" ADD COLUMN "estimated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "statistics_publications" ADD COLUMN "estimate_ids" integer[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "statistics_sum_cells" ADD COLUMN "estimated" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "statistics_estimate_rows" ADD CONSTRAINT "statistics_estimate_rows_estimate_id_statistics_estimates_id_fk" FOREIGN KEY ("estimate_id") REFERENCES "public"."statistics_estimates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statistics_estimates" ADD CONSTRAINT "statistics_estimates_period_id_periods_id_fk" FOREIGN KEY ("period_id") REFERENCES "public"."periods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statistics_estimates" ADD CONSTRAINT "statistics_estimates_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statistics_estimates" ADD CONSTRAINT "statistics_estimates_source_period_id_periods_id_fk" FOREIGN KEY ("source_period_id") REFERENCES "public"."periods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "statistics_estimates_period_company_unique" ON "statistics_estimates" USING btree ("period_id","company_id");--> statement-breakpoint
CREATE INDEX "statistics_estimates_source_period_idx" ON "statistics_estimates" USING btree ("source_period_id");