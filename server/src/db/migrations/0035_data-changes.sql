CREATE TABLE "data_change_base" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "data_changes" (
	"xid" bigint PRIMARY KEY NOT NULL
);
--> statement-breakpoint
-- Hand-written: the data's version for the kept answers of reads (docs/decisions.md "Kept answers").
-- Every statement that writes a table of the app's data adds its transaction's id here once; the
-- rows a reader sees grow exactly when such a transaction commits. Not counted: what no kept answer
-- reads and what changes on every sign-in or request (sessions, login attempts, password resets,
-- idempotency keys, the audit trail) and these two tables.
INSERT INTO "data_change_base" ("id", "n") VALUES (1, 0);--> statement-breakpoint
CREATE FUNCTION note_data_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO data_changes (xid) VALUES (pg_current_xact_id()::text::bigint) ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT IN
    ('data_changes', 'data_change_base', 'sessions', 'login_attempts', 'password_resets', 'idempotency_keys', 'audit_entries')
  LOOP
    EXECUTE format('CREATE TRIGGER data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION note_data_change()', t);
  END LOOP;
END $$;
