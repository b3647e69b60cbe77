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
