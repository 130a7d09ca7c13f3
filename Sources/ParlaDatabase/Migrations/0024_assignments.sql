-- What a teacher assigns a class: a word list, phrases or a grammar note
-- (`targets`), the lesson items it covers (fixed when made) and its due
-- date. Progress is read from lesson_answers, never stored twice.
CREATE TABLE assignments (
    id         uuid PRIMARY KEY,
    class_id   uuid NOT NULL REFERENCES classes (id) ON DELETE CASCADE,
    kind       text NOT NULL CHECK (kind IN ('wordList', 'phrases', 'grammarNote')),
    targets    text[] NOT NULL,
    items      text[] NOT NULL,
    due_at     timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX assignments_class ON assignments (class_id, due_at);
-- A learner's answers to given items since a date.
CREATE INDEX lesson_answers_items ON lesson_answers (learner_id, item_id, answered_at);
