CREATE TABLE "stored_files" (
	"key" text PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"bytes" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "creator_key" text;--> statement-breakpoint
ALTER TABLE "stored_files" ADD CONSTRAINT "stored_files_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stored_files_workspace_idx" ON "stored_files" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "workspaces_creator_created_idx" ON "workspaces" USING btree ("creator_key","created_at");--> statement-breakpoint
-- Designs stored before sizes were recorded: their originals' sizes are known (designs.bytes), so they count.
INSERT INTO "stored_files" ("key", "workspace_id", "bytes") SELECT "original_key", "workspace_id", "bytes" FROM "designs" ON CONFLICT DO NOTHING;
