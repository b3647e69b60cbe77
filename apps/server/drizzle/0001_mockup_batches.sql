CREATE TABLE "mockup_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"design_id" uuid NOT NULL,
	"product_type" text NOT NULL,
	"total" integer NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "mockups" ADD COLUMN "batch_id" uuid;--> statement-breakpoint
ALTER TABLE "mockups" ADD COLUMN "batch_position" integer;--> statement-breakpoint
ALTER TABLE "mockup_batches" ADD CONSTRAINT "mockup_batches_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mockup_batches" ADD CONSTRAINT "mockup_batches_design_id_designs_id_fk" FOREIGN KEY ("design_id") REFERENCES "public"."designs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mockups" ADD CONSTRAINT "mockups_batch_id_mockup_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."mockup_batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mockups_batch_idx" ON "mockups" USING btree ("batch_id","batch_position");