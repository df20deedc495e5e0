CREATE TABLE "import_errors" (
	"import_id" integer NOT NULL,
	"position" integer NOT NULL,
	"row" integer,
	"code" text,
	"key" text,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"message" text,
	CONSTRAINT "import_errors_import_id_position_pk" PRIMARY KEY("import_id","position")
);
--> statement-breakpoint
ALTER TABLE "import_errors" ADD CONSTRAINT "import_errors_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Hand-written (issue 20): the errors stored so far move into the table, in their order.
INSERT INTO "import_errors" ("import_id", "position", "row", "code", "key", "params", "message")
SELECT i."id", (e.n - 1)::int, (e.value ->> 'row')::int, e.value ->> 'code', e.value ->> 'key',
  coalesce(e.value -> 'params', '{}'::jsonb), e.value ->> 'message'
FROM "imports" i, jsonb_array_elements(i."errors") WITH ORDINALITY AS e(value, n);
--> statement-breakpoint
ALTER TABLE "imports" DROP COLUMN "errors";