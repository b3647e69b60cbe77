ALTER TABLE "publications" ADD COLUMN "error_code" text;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "error_details" jsonb;