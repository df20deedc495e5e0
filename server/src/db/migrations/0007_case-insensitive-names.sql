ALTER TABLE "organizations" DROP CONSTRAINT "organizations_name_unique";--> statement-breakpoint
DROP INDEX "clusters_organization_name_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "clusters_organization_name_lower_unique" ON "clusters" USING btree ("organization_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "organizations_name_lower_unique" ON "organizations" USING btree (lower("name"));