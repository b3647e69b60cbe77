ALTER TABLE "designs" ADD COLUMN "vector" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Every stored SVG is vector (its sanitised original is kept); a stored PDF's page is not known here, so it stays rated by its pixels.
UPDATE "designs" SET "vector" = true WHERE "type" = 'svg';
