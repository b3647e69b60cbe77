ALTER TABLE "publications" ADD COLUMN "listing_state" text;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "listing_issues" text[];