-- The placement test's item banks (Corpora/placement/<lang>/<skill>.yaml),
-- replaced with every content import like the rest of the content.
CREATE TABLE placement_items (
    language    text NOT NULL,
    id          text NOT NULL,
    skill       text NOT NULL CHECK (skill IN ('vocabulary', 'grammar', 'reading', 'listening')),
    level       text NOT NULL CHECK (level IN ('A1', 'A2', 'B1', 'B2', 'C1')),
    topic       text NOT NULL,
    stem        text NOT NULL,
    passage     text,
    audio       text,
    correct     text NOT NULL,
    distractors text[] NOT NULL CHECK (cardinality(distractors) = 3),
    PRIMARY KEY (language, id)
);
