CREATE TABLE "fulfillment_webhooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"secret_enc" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"remote_line_id" text NOT NULL,
	"remote_variant_id" text,
	"sku" text,
	"title" text NOT NULL,
	"quantity" integer NOT NULL,
	"price" numeric(12, 2) NOT NULL,
	"product_id" uuid,
	"variant_id" uuid
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"integration_id" uuid NOT NULL,
	"remote_order_id" text NOT NULL,
	"name" text NOT NULL,
	"currency" text NOT NULL,
	"revenue" numeric(12, 2) NOT NULL,
	"cost" numeric(12, 2),
	"cost_currency" text,
	"status" text NOT NULL,
	"shipping_address_enc" text,
	"remote_customer_id" text,
	"fulfillment_provider" text,
	"printful_order_id" text,
	"confirm_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"failure_reason" text,
	"carrier" text,
	"tracking_number" text,
	"tracking_url" text,
	"store_fulfillment_id" text,
	"ordered_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "printful_sandbox_orders" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "printful_sandbox_orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"store_id" text NOT NULL,
	"external_id" text NOT NULL,
	"status" text NOT NULL,
	"body" jsonb NOT NULL,
	"next_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "printful_sandbox_webhooks" (
	"store_id" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"events" jsonb NOT NULL,
	"secret_key" text NOT NULL,
	"public_key" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"source" text NOT NULL,
	"event_id" text NOT NULL,
	"topic" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_events_source_event_id_pk" PRIMARY KEY("source","event_id")
);
--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "remote_variants" jsonb;--> statement-breakpoint
ALTER TABLE "workspace_settings" ADD COLUMN "order_confirmation" text;--> statement-breakpoint
ALTER TABLE "workspace_settings" ADD COLUMN "order_delay_minutes" integer;--> statement-breakpoint
ALTER TABLE "fulfillment_webhooks" ADD CONSTRAINT "fulfillment_webhooks_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fulfillment_webhooks_workspace_provider_uq" ON "fulfillment_webhooks" USING btree ("workspace_id","provider");--> statement-breakpoint
CREATE INDEX "order_lines_order_idx" ON "order_lines" USING btree ("order_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_integration_remote_uq" ON "orders" USING btree ("integration_id","remote_order_id");--> statement-breakpoint
CREATE INDEX "orders_workspace_ordered_idx" ON "orders" USING btree ("workspace_id","ordered_at");--> statement-breakpoint
CREATE UNIQUE INDEX "printful_sandbox_orders_store_external_uq" ON "printful_sandbox_orders" USING btree ("store_id","external_id");--> statement-breakpoint
CREATE INDEX "printful_sandbox_orders_next_idx" ON "printful_sandbox_orders" USING btree ("next_at");