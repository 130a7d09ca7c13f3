-- One channel, `parla_changes`, for every change a server keeps in memory
-- (ChangeFeed): each payload is tab-separated, its first field saying
-- whose it is. Delivered at commit, in commit order.

-- A leaderboard entry (LeaderboardRanks): "entry language kind period
-- learner score tenths seconds score_at seconds_at", the two instants in
-- microseconds since 2000-01-01 UTC (as PostgreSQL keeps them), so that
-- memory orders ties exactly as the table does; "-" after the learner when
-- the entry was deleted.
-- (In double precision, rounded to the nearest microsecond: exact for any
-- instant within centuries of 2000, and cheaper than numeric.)
CREATE FUNCTION parla_microseconds(instant timestamptz) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
    SELECT (date_part('epoch', instant) * 1000000)::bigint - 946684800000000
$$;

CREATE OR REPLACE FUNCTION leaderboard_entries_announce() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('parla_changes', concat_ws(E'\t', 'entry', OLD.language, OLD.kind, OLD.period, OLD.learner_id, '-'));
    ELSE
        PERFORM pg_notify('parla_changes', concat_ws(E'\t', 'entry', NEW.language, NEW.kind, NEW.period, NEW.learner_id,
            NEW.best_score, leaderboard_bucket('time', 0, NEW.best_seconds), NEW.best_seconds,
            parla_microseconds(NEW.score_at), parla_microseconds(NEW.seconds_at)));
    END IF;
    RETURN NULL;
END
$$;

-- The exact time is sent as text: shortest exact digits, whatever the
-- session that wrote the entry set.
ALTER FUNCTION leaderboard_entries_announce() SET extra_float_digits = 1;

-- A session ended (signed out, signed out elsewhere, its account deleted):
-- "session id". Servers that hold it in memory (SessionCache) drop it.
CREATE FUNCTION sessions_announce() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('parla_changes', concat_ws(E'\t', 'session', OLD.id));
    RETURN NULL;
END
$$;

CREATE TRIGGER sessions_announce AFTER DELETE ON sessions
FOR EACH ROW EXECUTE FUNCTION sessions_announce();

-- A learner renamed, given another avatar, or deleted: "learner id".
-- Servers that hold their public card in memory (LearnerDirectory) drop it.
CREATE FUNCTION learners_announce() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('parla_changes', concat_ws(E'\t', 'learner', OLD.id));
    RETURN NULL;
END
$$;

CREATE TRIGGER learners_announce AFTER DELETE OR UPDATE OF display_name, avatar_id, account_id ON learners
FOR EACH ROW EXECUTE FUNCTION learners_announce();
