CREATE TABLE "printify_sandbox_records" (
	"seq" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "printify_sandbox_records_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"shop_id" text NOT NULL,
	"id" text NOT NULL,
	"body" jsonb NOT NULL,
	"next_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "billing_currency" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "provider" text DEFAULT 'printful' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "printify_sandbox_records_uq" ON "printify_sandbox_records" USING btree ("kind","shop_id","id");--> statement-breakpoint
CREATE INDEX "printify_sandbox_records_next_idx" ON "printify_sandbox_records" USING btree ("next_at");