-- The discovery feed (issue 19, seed 002): each card a learner was shown,
-- and what it did with it. A dismissed card never comes back; unseen cards
-- come before seen ones.
CREATE TABLE feed_cards (
    learner_id uuid NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    language   text NOT NULL CHECK (language IN ('en', 'fr', 'it', 'de', 'es')),
    kind       text NOT NULL CHECK (kind IN ('word', 'phrase')),
    item_id    text NOT NULL,
    reaction   text CHECK (reaction IN ('liked', 'dismissed')),
    seen_at    timestamptz NOT NULL DEFAULT now(),
    reacted_at timestamptz,
    PRIMARY KEY (learner_id, language, kind, item_id)
);
