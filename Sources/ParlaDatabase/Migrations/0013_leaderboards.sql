-- Leaderboards: each learner's best score and best time per language, game
-- kind and period ('all', or an ISO week such as '2026-W47', UTC), written
-- in the transaction of the game that set them.
CREATE TABLE leaderboard_entries (
    language     text NOT NULL,
    kind         text NOT NULL,
    period       text NOT NULL,
    learner_id   uuid NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    best_score   integer NOT NULL CHECK (best_score >= 0),
    score_at     timestamptz NOT NULL,
    best_seconds double precision NOT NULL CHECK (best_seconds >= 0),
    seconds_at   timestamptz NOT NULL,
    PRIMARY KEY (language, kind, period, learner_id)
);
-- Best first: -best_score so that the board's order is one ascending row.
CREATE INDEX leaderboard_by_score ON leaderboard_entries (language, kind, period, (-best_score), score_at, learner_id);
CREATE INDEX leaderboard_by_time ON leaderboard_entries (language, kind, period, best_seconds, seconds_at, learner_id);

-- How many learners hold each score (bucket = the score) and each time
-- (bucket = tenths of a second), kept in step with the entries: a rank is 1
-- plus the learners in better buckets (at most a few thousand rows), plus,
-- for times, those better within the learner's own bucket. No rank scans
-- the entries.
CREATE TABLE leaderboard_counts (
    language text NOT NULL,
    kind     text NOT NULL,
    period   text NOT NULL,
    metric   text NOT NULL CHECK (metric IN ('score', 'time')),
    bucket   integer NOT NULL,
    entries  integer NOT NULL CHECK (entries >= 0),
    PRIMARY KEY (language, kind, period, metric, bucket)
);
