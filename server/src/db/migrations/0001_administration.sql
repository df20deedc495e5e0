CREATE TABLE "code_group_codes" (
	"code_group_id" integer NOT NULL,
	"code_id" integer NOT NULL,
	CONSTRAINT "code_group_codes_code_group_id_code_id_pk" PRIMARY KEY("code_group_id","code_id")
);
--> statement-breakpoint
CREATE TABLE "code_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"title" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "code_markets" (
	"code_id" integer NOT NULL,
	"market_id" integer NOT NULL,
	CONSTRAINT "code_markets_code_id_market_id_pk" PRIMARY KEY("code_id","market_id")
);
--> statement-breakpoint
CREATE TABLE "code_section_markets" (
	"code_section_id" integer NOT NULL,
	"market_id" integer NOT NULL,
	CONSTRAINT "code_section_markets_code_section_id_market_id_pk" PRIMARY KEY("code_section_id","market_id")
);
--> statement-breakpoint
CREATE TABLE "code_sections" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"name" text NOT NULL,
	"start" integer NOT NULL,
	"length" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"disabled_status" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "codes_disabled_status_check" CHECK ("codes"."disabled_status" in (0, 10, 20, 30))
);
--> statement-breakpoint
CREATE TABLE "company_codes" (
	"company_id" integer NOT NULL,
	"code_id" integer NOT NULL,
	CONSTRAINT "company_codes_company_id_code_id_pk" PRIMARY KEY("company_id","code_id")
);
--> statement-breakpoint
CREATE TABLE "currency_conversions" (
	"id" serial PRIMARY KEY NOT NULL,
	"from_currency_id" integer NOT NULL,
	"to_currency_id" integer NOT NULL,
	"rate" numeric(20, 10) NOT NULL,
	"valid_from" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "currency_conversions_rate_positive" CHECK ("currency_conversions"."rate" > 0),
	CONSTRAINT "currency_conversions_distinct" CHECK ("currency_conversions"."from_currency_id" <> "currency_conversions"."to_currency_id")
);
--> statement-breakpoint
CREATE TABLE "information_modal_dismissals" (
	"information_modal_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"dismissed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "information_modal_dismissals_information_modal_id_user_id_pk" PRIMARY KEY("information_modal_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "information_modals" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"starts_on" date,
	"ends_on" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organization_settings" (
	"organization_id" integer NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organization_settings_organization_id_key_pk" PRIMARY KEY("organization_id","key")
);
--> statement-breakpoint
CREATE TABLE "release_views" (
	"release_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"viewed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "release_views_release_id_user_id_pk" PRIMARY KEY("release_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "releases" (
	"id" serial PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"release_date" date NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "releases_version_unique" UNIQUE("version")
);
--> statement-breakpoint
ALTER TABLE "code_group_codes" ADD CONSTRAINT "code_group_codes_code_group_id_code_groups_id_fk" FOREIGN KEY ("code_group_id") REFERENCES "public"."code_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_group_codes" ADD CONSTRAINT "code_group_codes_code_id_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_groups" ADD CONSTRAINT "code_groups_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_markets" ADD CONSTRAINT "code_markets_code_id_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_markets" ADD CONSTRAINT "code_markets_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_section_markets" ADD CONSTRAINT "code_section_markets_code_section_id_code_sections_id_fk" FOREIGN KEY ("code_section_id") REFERENCES "public"."code_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_section_markets" ADD CONSTRAINT "code_section_markets_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_sections" ADD CONSTRAINT "code_sections_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "codes" ADD CONSTRAINT "codes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_codes" ADD CONSTRAINT "company_codes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_codes" ADD CONSTRAINT "company_codes_code_id_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "currency_conversions" ADD CONSTRAINT "currency_conversions_from_currency_id_currencies_id_fk" FOREIGN KEY ("from_currency_id") REFERENCES "public"."currencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "currency_conversions" ADD CONSTRAINT "currency_conversions_to_currency_id_currencies_id_fk" FOREIGN KEY ("to_currency_id") REFERENCES "public"."currencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "information_modal_dismissals" ADD CONSTRAINT "information_modal_dismissals_information_modal_id_information_modals_id_fk" FOREIGN KEY ("information_modal_id") REFERENCES "public"."information_modals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "information_modal_dismissals" ADD CONSTRAINT "information_modal_dismissals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "information_modals" ADD CONSTRAINT "information_modals_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_settings" ADD CONSTRAINT "organization_settings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_views" ADD CONSTRAINT "release_views_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_views" ADD CONSTRAINT "release_views_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "codes_organization_code_unique" ON "codes" USING btree ("organization_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "currency_conversions_pair_date_unique" ON "currency_conversions" USING btree ("from_currency_id","to_currency_id","valid_from");