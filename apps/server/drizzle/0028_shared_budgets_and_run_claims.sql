CREATE TABLE "call_budgets" (
	"key" text PRIMARY KEY NOT NULL,
	"sent" bigint[] DEFAULT '{}'::bigint[] NOT NULL,
	"spent_until" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD COLUMN "slice" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD COLUMN "claimed_by" uuid;--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD COLUMN "claimed_until" timestamp with time zone;