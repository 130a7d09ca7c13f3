-- Teacher-mode lessons: the lesson's state between requests (its questions
-- and every try), touched_at for the 24 h expiry, and at most one open
-- lesson per learner and language.
CREATE TABLE lessons (
    id          uuid PRIMARY KEY,
    learner_id  uuid NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    language    text NOT NULL CHECK (language IN ('en', 'fr', 'it', 'de', 'es')),
    state       jsonb NOT NULL,
    -- Bumped by every answer: an answer written against an older version is tried again.
    version     integer NOT NULL DEFAULT 0,
    started_at  timestamptz NOT NULL DEFAULT now(),
    touched_at  timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    expired_at  timestamptz
);
CREATE UNIQUE INDEX lessons_open ON lessons (learner_id, language) WHERE finished_at IS NULL AND expired_at IS NULL;

-- Each resolved question: its first try feeds the model, and the gaps are
-- read from these (by the item's topic or grammar note).
CREATE TABLE lesson_answers (
    lesson_id     uuid NOT NULL REFERENCES lessons (id) ON DELETE CASCADE,
    question_id   text NOT NULL,
    learner_id    uuid NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    language      text NOT NULL,
    item_id       text NOT NULL,
    question_type text NOT NULL,
    skill         text NOT NULL,
    area_kind     text NOT NULL CHECK (area_kind IN ('topic', 'grammarNote')),
    area_id       text NOT NULL,
    level         text NOT NULL CHECK (level IN ('A1', 'A2', 'B1', 'B2', 'C1', 'C2')),
    correct       boolean NOT NULL,
    tries         integer NOT NULL CHECK (tries >= 1),
    response_ms   integer NOT NULL CHECK (response_ms >= 0),
    answered_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (lesson_id, question_id)
);
CREATE INDEX lesson_answers_learner ON lesson_answers (learner_id, language);

-- FSRS memory of each item per learner (word, phrase or grammar exercise).
CREATE TABLE memory_cards (
    learner_id  uuid NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    language    text NOT NULL,
    item_id     text NOT NULL,
    phase       smallint NOT NULL CHECK (phase IN (1, 2, 3)),
    step        integer,
    stability   double precision,
    difficulty  double precision,
    due         timestamptz NOT NULL,
    last_review timestamptz,
    reviews     integer NOT NULL DEFAULT 0,
    lapses      integer NOT NULL DEFAULT 0,
    PRIMARY KEY (learner_id, language, item_id)
);

-- Practice difficulty of items, shared by all learners, moved by every
-- first try (items without a row keep their initial difficulty).
CREATE TABLE practice_items (
    language   text NOT NULL,
    item_id    text NOT NULL,
    difficulty double precision NOT NULL,
    responses  integer NOT NULL DEFAULT 0,
    PRIMARY KEY (language, item_id)
);

-- The gap-fill exercises of each grammar note (content, like the notes).
CREATE TABLE grammar_exercises (
    id          text PRIMARY KEY,
    note_id     text NOT NULL REFERENCES grammar_notes (id) ON DELETE CASCADE,
    stem        text NOT NULL CHECK (stem LIKE '%\_\_\_%'),
    correct     text NOT NULL,
    distractors text[] NOT NULL CHECK (cardinality(distractors) = 3),
    translation text,
    position    integer NOT NULL
);

-- Words that sound the same in a language (content): listening questions
-- never offer two of a group.
CREATE TABLE content_homophones (
    language text NOT NULL CHECK (language IN ('en', 'fr', 'it', 'de', 'es')),
    position integer NOT NULL,
    concepts text[] NOT NULL CHECK (cardinality(concepts) >= 2),
    PRIMARY KEY (language, position)
);
