CREATE TABLE "shopify_webhook_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" text NOT NULL,
	"webhook_id" text,
	"topic" text NOT NULL,
	"shop" text NOT NULL,
	"payload" jsonb,
	"triggered_at" timestamp with time zone,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "refresh_token_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "refresh_locked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "remote_state" text;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "remote_changes" text[];--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "remote_checked_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "shopify_webhook_events_event_uq" ON "shopify_webhook_events" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "shopify_webhook_events_received_idx" ON "shopify_webhook_events" USING btree ("received_at");