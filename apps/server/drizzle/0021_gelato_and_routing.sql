CREATE TABLE "gelato_catalog_ids" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "gelato_catalog_ids_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uid" text NOT NULL,
	CONSTRAINT "gelato_catalog_ids_uid_unique" UNIQUE("uid")
);
--> statement-breakpoint
CREATE TABLE "gelato_sandbox_orders" (
	"id" text PRIMARY KEY NOT NULL,
	"account" text NOT NULL,
	"order_reference_id" text NOT NULL,
	"body" jsonb NOT NULL,
	"next_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gelato_sandbox_webhooks" (
	"account" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "printer_reason" text;--> statement-breakpoint
ALTER TABLE "workspace_settings" ADD COLUMN "printer_routing" text;--> statement-breakpoint
ALTER TABLE "workspace_settings" ADD COLUMN "printer_routing_provider" text;--> statement-breakpoint
CREATE INDEX "gelato_sandbox_orders_ref_idx" ON "gelato_sandbox_orders" USING btree ("account","order_reference_id");--> statement-breakpoint
CREATE INDEX "gelato_sandbox_orders_next_idx" ON "gelato_sandbox_orders" USING btree ("next_at");