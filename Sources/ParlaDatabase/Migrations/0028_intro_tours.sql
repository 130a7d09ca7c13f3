-- The intro tour (issue 19): per learner, whether it finished or skipped
-- the tour, which version, and the last step it reached.
CREATE TABLE learner_intro_tours (
    learner_id   uuid PRIMARY KEY REFERENCES learners (id) ON DELETE CASCADE,
    tour_version integer NOT NULL,
    status       text NOT NULL CHECK (status IN ('in_progress', 'completed', 'skipped')),
    last_step    text,
    updated_at   timestamptz NOT NULL DEFAULT now()
);
