-- EFIGS content, imported from Corpora/ by `parla content import`.
-- The tables mirror the corpus: concepts shared by every language, their
-- localizations, word lists, phrases and grammar notes. Assets (pictures,
-- audio) are named by their content hash; their bytes live in the asset store.

CREATE TABLE content_versions (
    version     text PRIMARY KEY,
    imported_at timestamptz NOT NULL DEFAULT now(),
    summary     jsonb NOT NULL
);

CREATE TABLE concepts (
    key        text PRIMARY KEY,
    level      text NOT NULL CHECK (level IN ('A1', 'A2', 'B1', 'B2', 'C1', 'C2')),
    picture    text NOT NULL,
    sound      text,
    background text
);

CREATE TABLE concept_localizations (
    concept_key       text NOT NULL REFERENCES concepts (key) ON DELETE CASCADE,
    language          text NOT NULL,
    word              text NOT NULL,
    article           text,
    gender            text CHECK (gender IN ('m', 'f', 'n')),
    plural            text,
    frequency         integer,
    definition        text NOT NULL,
    sort_key          text,
    case_override     text,
    disabled          boolean NOT NULL DEFAULT false,
    word_audio        text,
    definition_audio  text,
    PRIMARY KEY (concept_key, language)
);

CREATE TABLE word_lists (
    id       text PRIMARY KEY,
    icon     text NOT NULL,
    names    jsonb NOT NULL,
    position integer NOT NULL
);

CREATE TABLE word_list_words (
    list_id     text NOT NULL REFERENCES word_lists (id) ON DELETE CASCADE,
    concept_key text NOT NULL REFERENCES concepts (key) ON DELETE CASCADE,
    position    integer NOT NULL,
    free        boolean NOT NULL DEFAULT false,
    PRIMARY KEY (list_id, concept_key)
);

CREATE TABLE phrases (
    id    text PRIMARY KEY,
    topic text NOT NULL,
    level text NOT NULL CHECK (level IN ('A1', 'A2', 'B1', 'B2', 'C1', 'C2')),
    skill text NOT NULL CHECK (skill IN ('vocabulary', 'grammar', 'listening', 'reading', 'speaking'))
);
CREATE INDEX phrases_level_topic ON phrases (level, topic);

CREATE TABLE phrase_texts (
    phrase_id text NOT NULL REFERENCES phrases (id) ON DELETE CASCADE,
    language  text NOT NULL,
    text      text NOT NULL,
    audio     text,
    PRIMARY KEY (phrase_id, language)
);

CREATE TABLE grammar_notes (
    id       text PRIMARY KEY,
    language text NOT NULL,
    level    text NOT NULL,
    title    text NOT NULL,
    summary  text NOT NULL,
    body     text NOT NULL,
    position integer NOT NULL
);

CREATE TABLE grammar_examples (
    note_id   text NOT NULL REFERENCES grammar_notes (id) ON DELETE CASCADE,
    phrase_id text NOT NULL REFERENCES phrases (id) ON DELETE CASCADE,
    position  integer NOT NULL,
    PRIMARY KEY (note_id, phrase_id)
);

-- What a learner owns. Purchases fill it later; `parla grant` adds rows now.
-- A product is a word list id, or a bundle that maps to lists (below).
CREATE TABLE entitlements (
    learner_id uuid NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    product    text NOT NULL,
    source     text NOT NULL,
    granted_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (learner_id, product)
);

-- Products that unlock other products: the old 175-word set of the picture
-- dictionary maps to the lists that replaced it, so its owners keep it.
CREATE TABLE product_grants (
    product  text NOT NULL,
    unlocks  text NOT NULL,
    PRIMARY KEY (product, unlocks)
);
