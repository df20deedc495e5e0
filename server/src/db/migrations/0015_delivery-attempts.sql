CREATE TABLE "communication_delivery_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"delivery_id" integer NOT NULL,
	"number" integer NOT NULL,
	"outcome" text DEFAULT 'sending' NOT NULL,
	"smtp_response" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "communication_delivery_attempts_outcome_check" CHECK ("communication_delivery_attempts"."outcome" in ('sending', 'sent', 'deferred', 'failed', 'interrupted'))
);
--> statement-breakpoint
ALTER TABLE "communication_deliveries" ADD COLUMN "round_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "communication_delivery_attempts" ADD CONSTRAINT "communication_delivery_attempts_delivery_id_communication_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."communication_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "communication_delivery_attempts_number_unique" ON "communication_delivery_attempts" USING btree ("delivery_id","number");--> statement-breakpoint
-- Hand-written (issue 20): what was known of earlier sends is kept as one attempt per delivery
-- (its last one, with its answer); the round counts what the backoff already counted.
UPDATE "communication_deliveries" SET "round_attempts" = "attempts";
--> statement-breakpoint
INSERT INTO "communication_delivery_attempts" ("delivery_id", "number", "outcome", "smtp_response", "started_at", "finished_at")
SELECT "id", "attempts",
  CASE "status" WHEN 'sent' THEN 'sent' WHEN 'failed' THEN 'failed' WHEN 'queued' THEN 'deferred' ELSE 'sending' END,
  "smtp_response", coalesce("claimed_at", "updated_at"), CASE WHEN "status" = 'sending' THEN NULL ELSE "updated_at" END
FROM "communication_deliveries" WHERE "attempts" > 0;
