ALTER TABLE "integrations" ADD COLUMN "orders_cursor" bigint;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "problem" text;