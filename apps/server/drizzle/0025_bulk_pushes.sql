CREATE TABLE "bulk_pushes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"integration_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"remote_url" text,
	"schedule_id" uuid,
	"error" text,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD COLUMN "error" text;--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD COLUMN "started_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "bulk_pushes" ADD CONSTRAINT "bulk_pushes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_pushes" ADD CONSTRAINT "bulk_pushes_run_id_bulk_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."bulk_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_pushes" ADD CONSTRAINT "bulk_pushes_item_id_bulk_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."bulk_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_pushes" ADD CONSTRAINT "bulk_pushes_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bulk_pushes_item_store_idx" ON "bulk_pushes" USING btree ("item_id","integration_id");--> statement-breakpoint
CREATE INDEX "bulk_pushes_run_idx" ON "bulk_pushes" USING btree ("run_id");