-- A lesson's state is written whole on every answer and read back whole,
-- only by the server, which decodes it itself: nothing in SQL looks into
-- it. As jsonb, PostgreSQL parsed every write (its numbers included) and
-- compressed it with pglz. As text it is kept as sent, compressed with lz4
-- where this PostgreSQL has it: a wrong answer's write ran 7,268 times a
-- second under pgbench instead of 4,107 (Benchmarks/course.sh, 64 clients).
ALTER TABLE lessons ALTER COLUMN state TYPE text USING state::text;
DO $$
BEGIN
    ALTER TABLE lessons ALTER COLUMN state SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
    RAISE NOTICE 'lz4 is not built into this PostgreSQL: lesson states stay compressed with pglz';
END
$$;
