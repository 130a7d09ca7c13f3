-- Placement tests: the adaptive test's state between requests (resumable),
-- the item on screen and when it was served (the server's own measure of
-- response time), the result, and every answer (for re-estimating the
-- items' parameters).
CREATE TABLE placements (
    id          uuid PRIMARY KEY,
    learner_id  uuid NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    language    text NOT NULL CHECK (language IN ('en', 'fr', 'it', 'de', 'es')),
    session     jsonb NOT NULL,
    served_item text,
    served_at   timestamptz,
    started_at  timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    result      jsonb
);
-- At most one unfinished test per learner and language: starting again resumes it.
CREATE UNIQUE INDEX placements_open ON placements (learner_id, language) WHERE finished_at IS NULL;

CREATE TABLE placement_responses (
    placement_id uuid NOT NULL REFERENCES placements (id) ON DELETE CASCADE,
    item_id      text NOT NULL,
    language     text NOT NULL,
    correct      boolean NOT NULL,
    response_ms  integer NOT NULL CHECK (response_ms >= 0),
    answered_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (placement_id, item_id)
);
CREATE INDEX placement_responses_item ON placement_responses (language, item_id);
