CREATE TABLE "workspace_read_versions" (
	"workspace_id" uuid PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workspace_read_versions" ADD CONSTRAINT "workspace_read_versions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The version moves on once per transaction and workspace, at commit (deferred constraint triggers): the row is
-- locked last, after every other lock the transaction takes, so two writers never wait on each other in a cycle,
-- and a reader that sees version v sees every change committed with it.
CREATE OR REPLACE FUNCTION workspace_read_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ws uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.workspace_id ELSE NEW.workspace_id END;
  flag text := 'podforge.read_version_' || replace(ws::text, '-', '');
BEGIN
  IF current_setting(flag, true) IS DISTINCT FROM 'bumped' THEN
    UPDATE workspace_read_versions SET version = version + 1 WHERE workspace_id = ws;
    IF NOT FOUND THEN
      -- A workspace deleted in this transaction (its rows going with it) needs no version.
      INSERT INTO workspace_read_versions AS v (workspace_id, version)
        SELECT ws, 1 WHERE EXISTS (SELECT 1 FROM workspaces WHERE id = ws)
        ON CONFLICT (workspace_id) DO UPDATE SET version = v.version + 1;
    END IF;
    PERFORM set_config(flag, 'bumped', true);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER products_read_version AFTER INSERT OR UPDATE OR DELETE ON products
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION workspace_read_version_bump();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER product_variants_read_version AFTER INSERT OR UPDATE OR DELETE ON product_variants
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION workspace_read_version_bump();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER product_mockups_read_version AFTER INSERT OR UPDATE OR DELETE ON product_mockups
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION workspace_read_version_bump();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER publications_read_version AFTER INSERT OR UPDATE OR DELETE ON publications
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION workspace_read_version_bump();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER orders_read_version AFTER INSERT OR UPDATE OR DELETE ON orders
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION workspace_read_version_bump();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ai_generations_read_version AFTER INSERT OR UPDATE OR DELETE ON ai_generations
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION workspace_read_version_bump();
--> statement-breakpoint
-- My Products' search text in lower case, searched with LIKE on a lower-cased pattern: the same matches as ILIKE,
-- whose per-row case folding made a search's recheck of its matching rows about 3 times slower (20 ms against 6 ms
-- for a word in 1,900 of 10,000 products on PostgreSQL 15). A stored column is computed when it is added, so the
-- column is dropped and added again around the new function.
DROP INDEX "products_workspace_search_idx";--> statement-breakpoint
ALTER TABLE "products" DROP COLUMN "search_text";--> statement-breakpoint
CREATE OR REPLACE FUNCTION product_search_text(title text, description text, tags jsonb) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN lower(title || E'\n' || description || E'\n' || coalesce((SELECT string_agg(t, E'\n') FROM jsonb_array_elements_text(tags) AS t), ''));--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_text" text GENERATED ALWAYS AS (product_search_text(title, description, tags)) STORED;--> statement-breakpoint
CREATE INDEX "products_workspace_search_idx" ON "products" USING gin ("workspace_id","search_text" gin_trgm_ops) WITH (fastupdate=off);
