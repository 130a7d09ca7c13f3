-- Ranks in one statement, and counts that cannot drift from the entries.
--
-- The counts are kept at two spans: each bucket (span 1) and each block of
-- 64 buckets (span 64). A rank is 1 + the learners in better blocks + those
-- in better buckets of the learner's own block: at most a few dozen rows,
-- where one span summed hundreds. A trigger on the entries keeps both in
-- step with every insert, improvement and deletion (a deleted learner's
-- entries leave the counts too, which a count written by the application
-- missed).
DROP TABLE leaderboard_counts;
CREATE TABLE leaderboard_counts (
    language text NOT NULL,
    kind     text NOT NULL,
    period   text NOT NULL,
    metric   text NOT NULL CHECK (metric IN ('score', 'time')),
    span     integer NOT NULL CHECK (span IN (1, 64)),
    bucket   integer NOT NULL,
    entries  integer NOT NULL CHECK (entries >= 0),
    PRIMARY KEY (language, kind, period, metric, span, bucket)
) WITH (fillfactor = 50);

-- A score's bucket is the score; a time's is its tenth of a second (times
-- a tenth apart share a rank, as they share what the board shows).
CREATE FUNCTION leaderboard_bucket(metric text, score integer, seconds double precision) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE metric WHEN 'score' THEN score ELSE floor(seconds * 10)::integer END;

INSERT INTO leaderboard_counts (language, kind, period, metric, span, bucket, entries)
SELECT e.language, e.kind, e.period, m.metric, s.span, leaderboard_bucket(m.metric, e.best_score, e.best_seconds) / s.span, count(*)
FROM leaderboard_entries e
CROSS JOIN (VALUES ('score'), ('time')) AS m (metric)
CROSS JOIN (VALUES (1), (64)) AS s (span)
GROUP BY 1, 2, 3, 4, 5, 6;

-- Rows leave their old buckets and join their new ones in one order
-- (metric, span, bucket), so that two results finishing at once never wait
-- on each other in a circle.
CREATE FUNCTION leaderboard_counts_follow() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    change record;
BEGIN
    FOR change IN
        SELECT c.language, c.kind, c.period, c.metric, c.span, c.bucket, sum(c.delta)::integer AS delta
        FROM (
            SELECT OLD.language, OLD.kind, OLD.period, m.metric, s.span,
                   leaderboard_bucket(m.metric, OLD.best_score, OLD.best_seconds) / s.span, -1
            FROM (VALUES ('score'), ('time')) AS m (metric), (VALUES (1), (64)) AS s (span)
            WHERE TG_OP IN ('UPDATE', 'DELETE')
            UNION ALL
            SELECT NEW.language, NEW.kind, NEW.period, m.metric, s.span,
                   leaderboard_bucket(m.metric, NEW.best_score, NEW.best_seconds) / s.span, 1
            FROM (VALUES ('score'), ('time')) AS m (metric), (VALUES (1), (64)) AS s (span)
            WHERE TG_OP IN ('UPDATE', 'INSERT')
        ) AS c (language, kind, period, metric, span, bucket, delta)
        GROUP BY 1, 2, 3, 4, 5, 6
        HAVING sum(c.delta) <> 0
        ORDER BY 1, 2, 3, 4, 5, 6
    LOOP
        IF change.delta > 0 THEN
            INSERT INTO leaderboard_counts AS counts (language, kind, period, metric, span, bucket, entries)
            VALUES (change.language, change.kind, change.period, change.metric, change.span, change.bucket, change.delta)
            ON CONFLICT (language, kind, period, metric, span, bucket) DO UPDATE SET entries = counts.entries + excluded.entries;
        ELSE
            UPDATE leaderboard_counts SET entries = entries + change.delta
            WHERE language = change.language AND kind = change.kind AND period = change.period
              AND metric = change.metric AND span = change.span AND bucket = change.bucket;
        END IF;
    END LOOP;
    RETURN NULL;
END
$$;

CREATE TRIGGER leaderboard_counts_follow AFTER INSERT OR DELETE OR UPDATE OF best_score, best_seconds ON leaderboard_entries
FOR EACH ROW EXECUTE FUNCTION leaderboard_counts_follow();
