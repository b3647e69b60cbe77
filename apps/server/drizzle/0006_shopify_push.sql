CREATE TABLE "shopify_sandbox_records" (
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shopify_sandbox_records_kind_key_pk" PRIMARY KEY("kind","key")
);
--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "error_status" integer;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "job_id" uuid;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "progress" text;