CREATE TABLE "file_chunks" (
	"file_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "file_chunks_file_id_seq_pk" PRIMARY KEY("file_id","seq")
);
--> statement-breakpoint
-- Hand-added: files are xlsx (zip), png or jpg, already compressed; PostgreSQL need not try again.
ALTER TABLE "file_chunks" ALTER COLUMN "data" SET STORAGE EXTERNAL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "complete" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "file_chunks" ADD CONSTRAINT "file_chunks_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Hand-added: the files stored so far keep their content, as one chunk each (readers take chunks
-- of any size). An empty file has no chunk.
INSERT INTO "file_chunks" ("file_id", "seq", "data") SELECT "id", 0, "content" FROM "files" WHERE octet_length("content") > 0;--> statement-breakpoint
ALTER TABLE "files" DROP COLUMN "content";--> statement-breakpoint
-- Hand-added: every file stored so far is complete. Updated after the drop, so that each row is
-- written anew without the dropped content, whose space vacuum can then reclaim.
UPDATE "files" SET "complete" = true;
