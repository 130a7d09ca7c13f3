-- Every change of a leaderboard entry is announced on the channel
-- `leaderboard_entries`, delivered at commit in commit order, so that each
-- server keeps its ranks in memory in step with the table
-- (LeaderboardRanks). The payload is "language kind period learner score
-- tenths", tab-separated, with "-" for both when the entry was deleted.
-- The price: PostgreSQL lets transactions that notify commit one at a time
-- (measured with pgbench on the bare result statement: 828 commits/s
-- without, 553 with, on two cores); a game's commit carries one.
CREATE FUNCTION leaderboard_entries_announce() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('leaderboard_entries', concat_ws(E'\t', OLD.language, OLD.kind, OLD.period, OLD.learner_id, '-', '-'));
    ELSE
        PERFORM pg_notify('leaderboard_entries', concat_ws(E'\t', NEW.language, NEW.kind, NEW.period, NEW.learner_id,
                                                            NEW.best_score, leaderboard_bucket('time', 0, NEW.best_seconds)));
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER leaderboard_entries_announce AFTER INSERT OR DELETE OR UPDATE OF best_score, best_seconds ON leaderboard_entries
FOR EACH ROW EXECUTE FUNCTION leaderboard_entries_announce();

-- A learner's own entries (their profile's boards, their removal) without
-- reading every board: the primary key leads with the board.
-- (Built inside the migration's transaction, so it holds writes to the
-- entries while it builds: seconds for a million entries.)
CREATE INDEX leaderboard_entries_by_learner ON leaderboard_entries (learner_id);
