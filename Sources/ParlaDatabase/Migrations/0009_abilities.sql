-- Ability per learner, language and skill on the logit scale of the CEFR
-- cut scores (placement seeds it; every answer moves it), and one snapshot
-- per day for the history ('overall' for the weighted whole).
CREATE TABLE abilities (
    learner_id uuid NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    language   text NOT NULL CHECK (language IN ('en', 'fr', 'it', 'de', 'es')),
    skill      text NOT NULL CHECK (skill IN ('vocabulary', 'grammar', 'listening', 'reading', 'speaking')),
    theta      double precision NOT NULL,
    responses  integer NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (learner_id, language, skill)
);

CREATE TABLE ability_history (
    learner_id uuid NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    language   text NOT NULL,
    skill      text NOT NULL CHECK (skill IN ('overall', 'vocabulary', 'grammar', 'listening', 'reading', 'speaking')),
    day        date NOT NULL,
    theta      double precision NOT NULL,
    level      text NOT NULL CHECK (level IN ('A1', 'A2', 'B1', 'B2', 'C1', 'C2')),
    PRIMARY KEY (learner_id, language, skill, day)
);
