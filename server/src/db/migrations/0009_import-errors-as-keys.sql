-- Import row errors are stored as message keys with their parameters and rendered in the reader's
-- language when served (issue 9): drop the English sentence stored beside each key. An entry
-- without a key (none is expected) keeps its sentence, its only text.
UPDATE "imports"
SET "errors" = (
  SELECT coalesce(jsonb_agg(CASE WHEN e ? 'key' THEN e - 'message' ELSE e END ORDER BY i), '[]'::jsonb)
  FROM jsonb_array_elements("errors") WITH ORDINALITY AS t(e, i)
)
WHERE jsonb_typeof("errors") = 'array' AND jsonb_array_length("errors") > 0;
