-- Orders read by earlier Syncs (totals only, no lines) become orders 'not from Podforge', then the old table goes.
INSERT INTO "orders" ("workspace_id", "integration_id", "remote_order_id", "name", "currency", "revenue", "cost", "status", "ordered_at")
SELECT "workspace_id", "integration_id", regexp_replace("remote_order_id", '^.*/', ''), '#' || regexp_replace("remote_order_id", '^.*/', ''), "currency", "total", "cost", 'external', "ordered_at"
FROM "store_orders"
ON CONFLICT ("integration_id", "remote_order_id") DO NOTHING;--> statement-breakpoint
DROP TABLE "store_orders" CASCADE;