ALTER TABLE "communication_deliveries" ADD COLUMN "claimed_by" text;--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "worker" text;--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "heartbeat_at" timestamp with time zone;