-- Text in the UI language (issue 19, DF5): each grammar note explained in
-- French, Italian, German and Spanish beside its English (which stays in
-- grammar_notes), and each exercise's completed sentence in those
-- languages beside its English translation.
CREATE TABLE grammar_note_explanations (
    note_id     text NOT NULL REFERENCES grammar_notes (id) ON DELETE CASCADE,
    ui_language text NOT NULL CHECK (ui_language IN ('fr', 'it', 'de', 'es')),
    title       text NOT NULL,
    summary     text NOT NULL,
    body        text NOT NULL,
    PRIMARY KEY (note_id, ui_language)
);

CREATE TABLE grammar_exercise_translations (
    exercise_id text NOT NULL REFERENCES grammar_exercises (id) ON DELETE CASCADE,
    ui_language text NOT NULL CHECK (ui_language IN ('fr', 'it', 'de', 'es')),
    text        text NOT NULL,
    PRIMARY KEY (exercise_id, ui_language)
);
