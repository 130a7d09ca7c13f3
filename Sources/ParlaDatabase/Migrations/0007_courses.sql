-- The languages a learner studies (T3.1-T3.3): from the beginning, or from
-- where a placement test puts them; `level` is where the course starts and
-- stays null while the placement test runs.
CREATE TABLE courses (
    learner_id uuid NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    language   text NOT NULL CHECK (language IN ('en', 'fr', 'it', 'de', 'es')),
    start      text NOT NULL CHECK (start IN ('beginning', 'placement')),
    level      text CHECK (level IN ('A1', 'A2', 'B1', 'B2', 'C1', 'C2')),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (learner_id, language)
);
