-- A learner's saved words and phrases, per language (issue 19, seed 002):
-- at most 50 a language (the service's rule), one of them marked as the
-- one being studied.
CREATE TABLE saved_items (
    learner_id uuid NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    language   text NOT NULL CHECK (language IN ('en', 'fr', 'it', 'de', 'es')),
    kind       text NOT NULL CHECK (kind IN ('word', 'phrase')),
    item_id    text NOT NULL,
    studying   boolean NOT NULL DEFAULT false,
    saved_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (learner_id, language, kind, item_id)
);
CREATE UNIQUE INDEX saved_items_studying ON saved_items (learner_id, language) WHERE studying;
