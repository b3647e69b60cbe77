CREATE TABLE "print_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"placement" text NOT NULL,
	"fingerprint" text NOT NULL,
	"storage_key" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"dpi" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_mockups" (
	"workspace_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"mockup_id" uuid NOT NULL,
	"color" text,
	"main" boolean DEFAULT false NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "product_mockups_product_id_mockup_id_pk" PRIMARY KEY("product_id","mockup_id")
);
--> statement-breakpoint
CREATE TABLE "workspace_settings" (
	"workspace_id" uuid PRIMARY KEY NOT NULL,
	"target_margin" numeric(5, 2),
	"store_fees" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "catalog_product_id" SET DATA TYPE integer USING (CASE WHEN "catalog_product_id" ~ '^[0-9]{1,9}$' THEN "catalog_product_id"::integer END);--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "catalog_variant_id" integer;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "color" text;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "color_hex" text;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "size" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "placements" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "adjustments" jsonb;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "content_updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "print_files" ADD CONSTRAINT "print_files_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_files" ADD CONSTRAINT "print_files_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_mockups" ADD CONSTRAINT "product_mockups_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_mockups" ADD CONSTRAINT "product_mockups_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_mockups" ADD CONSTRAINT "product_mockups_mockup_id_mockups_id_fk" FOREIGN KEY ("mockup_id") REFERENCES "public"."mockups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_settings" ADD CONSTRAINT "workspace_settings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "print_files_product_placement_uq" ON "print_files" USING btree ("product_id","placement");--> statement-breakpoint
CREATE UNIQUE INDEX "product_mockups_one_main_uq" ON "product_mockups" USING btree ("product_id") WHERE "product_mockups"."main";--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_product_catalog_uq" ON "product_variants" USING btree ("product_id","catalog_variant_id");--> statement-breakpoint
CREATE INDEX "product_variants_workspace_sku_idx" ON "product_variants" USING btree ("workspace_id","sku");;--> statement-breakpoint
-- Existing products: the mockup their mockup_url names becomes their main picture, linked by key.
INSERT INTO "product_mockups" ("workspace_id", "product_id", "mockup_id", "color", "main", "position")
SELECT p."workspace_id", p."id", m."id", NULL, true, 0
FROM "products" p
JOIN "mockups" m ON m."workspace_id" = p."workspace_id"
  AND m."id"::text = lower(substring(p."mockup_url" from '^/api/mockups/([0-9a-fA-F-]{36})/file$'))
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "product_mockups" ("workspace_id", "product_id", "mockup_id", "color", "main", "position")
SELECT m."workspace_id", m."product_id", m."id", NULL, false, 1
FROM "mockups" m
WHERE m."product_id" IS NOT NULL
ON CONFLICT DO NOTHING;--> statement-breakpoint
UPDATE "products" p SET "adjustments" = m."adjustments"
FROM "product_mockups" pm JOIN "mockups" m ON m."id" = pm."mockup_id"
WHERE pm."product_id" = p."id" AND pm."main";
