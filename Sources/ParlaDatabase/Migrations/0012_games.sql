-- Games (card matching): the deal and the flip log as the server keeps them
-- (state), a version bumped by every flip (a flip written against an older
-- one is tried again), and once finished the result derived from the log.
CREATE TABLE games (
    id          uuid PRIMARY KEY,
    learner_id  uuid NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    language    text NOT NULL CHECK (language IN ('en', 'fr', 'it', 'de', 'es')),
    kind        text NOT NULL CHECK (kind IN ('matching')),
    state       jsonb NOT NULL,
    version     integer NOT NULL DEFAULT 0,
    started_at  timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    pairs       integer CHECK (pairs BETWEEN 2 AND 18),
    score       integer CHECK (score >= 0),
    seconds     double precision CHECK (seconds >= 0),
    flips       integer,
    mismatches  integer,
    offline     boolean NOT NULL DEFAULT false
);
CREATE INDEX games_learner ON games (learner_id, language, kind, finished_at);
