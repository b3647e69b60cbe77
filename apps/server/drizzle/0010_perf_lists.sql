-- My Products' search: trigram indexes (pg_trgm) on the text a search looks in, scoped by workspace (btree_gin).
-- PGlite loads both extensions in db/client.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
CREATE OR REPLACE FUNCTION product_search_text(title text, description text, tags jsonb) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN title || E'\n' || description || E'\n' || coalesce((SELECT string_agg(t, E'\n') FROM jsonb_array_elements_text(tags) AS t), '');--> statement-breakpoint
CREATE TABLE "product_counts" (
	"workspace_id" uuid NOT NULL,
	"status" text NOT NULL,
	"product_type" text NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_counts_workspace_id_status_product_type_pk" PRIMARY KEY("workspace_id","status","product_type")
);
--> statement-breakpoint
DROP INDEX "products_workspace_created_idx";--> statement-breakpoint
DROP INDEX "products_workspace_status_idx";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_text" text GENERATED ALWAYS AS (product_search_text(title, description, tags)) STORED;--> statement-breakpoint
ALTER TABLE "product_counts" ADD CONSTRAINT "product_counts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "products_workspace_created_id_idx" ON "products" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "products_workspace_status_created_idx" ON "products" USING btree ("workspace_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "products_workspace_type_created_idx" ON "products" USING btree ("workspace_id","product_type","created_at","id");--> statement-breakpoint
CREATE INDEX "products_workspace_search_idx" ON "products" USING gin ("workspace_id","search_text" gin_trgm_ops) WITH (fastupdate=off);--> statement-breakpoint
-- product_counts follows every insert, delete and change of status or type. Both rows a change touches are
-- updated in key order, so two changes at once cannot wait on each other in a cycle.
CREATE OR REPLACE FUNCTION product_counts_add(ws uuid, st text, pt text, delta integer) RETURNS void
  LANGUAGE sql AS $$
  INSERT INTO product_counts AS c (workspace_id, status, product_type, n) VALUES (ws, st, pt, delta)
  ON CONFLICT (workspace_id, status, product_type) DO UPDATE SET n = c.n + EXCLUDED.n
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION product_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM product_counts_add(NEW.workspace_id, NEW.status, NEW.product_type, 1);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM product_counts_add(OLD.workspace_id, OLD.status, OLD.product_type, -1);
  ELSIF (OLD.workspace_id, OLD.status, OLD.product_type) < (NEW.workspace_id, NEW.status, NEW.product_type) THEN
    PERFORM product_counts_add(OLD.workspace_id, OLD.status, OLD.product_type, -1);
    PERFORM product_counts_add(NEW.workspace_id, NEW.status, NEW.product_type, 1);
  ELSE
    PERFORM product_counts_add(NEW.workspace_id, NEW.status, NEW.product_type, 1);
    PERFORM product_counts_add(OLD.workspace_id, OLD.status, OLD.product_type, -1);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER products_counts_insert_delete AFTER INSERT OR DELETE ON products
  FOR EACH ROW EXECUTE FUNCTION product_counts_track();--> statement-breakpoint
CREATE TRIGGER products_counts_update AFTER UPDATE OF workspace_id, status, product_type ON products
  FOR EACH ROW WHEN ((OLD.workspace_id, OLD.status, OLD.product_type) IS DISTINCT FROM (NEW.workspace_id, NEW.status, NEW.product_type))
  EXECUTE FUNCTION product_counts_track();--> statement-breakpoint
INSERT INTO product_counts (workspace_id, status, product_type, n)
  SELECT workspace_id, status, product_type, count(*)::integer FROM products GROUP BY workspace_id, status, product_type;
