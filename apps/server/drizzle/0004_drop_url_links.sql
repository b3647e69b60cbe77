ALTER TABLE "mockups" DROP CONSTRAINT "mockups_product_id_products_id_fk";
--> statement-breakpoint
ALTER TABLE "mockups" DROP COLUMN "product_id";--> statement-breakpoint
ALTER TABLE "products" DROP COLUMN "template_id";--> statement-breakpoint
ALTER TABLE "products" DROP COLUMN "mockup_url";