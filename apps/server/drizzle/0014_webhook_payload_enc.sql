ALTER TABLE "shopify_webhook_events" ADD COLUMN "payload_enc" text;--> statement-breakpoint
-- Processed events keep no payload (buyers' names and addresses were stored in clear before this).
UPDATE "shopify_webhook_events" SET "payload" = NULL WHERE "processed_at" IS NOT NULL;
