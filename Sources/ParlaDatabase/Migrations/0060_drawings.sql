-- The Art Space (seed 001, issue 35): a learner's drawings, each with its
-- title and, when the learner recorded one, what it said about it. All
-- sealed as personal data is (PersonalDataCipher), erased with the
-- learner; `shared` lets the teachers of its classes see it.
CREATE TABLE drawings (
    id                uuid PRIMARY KEY,
    learner_id        uuid NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    title             bytea NOT NULL,
    picture           bytea NOT NULL,
    picture_type      text NOT NULL CHECK (picture_type IN ('image/png', 'image/jpeg')),
    width             integer NOT NULL CHECK (width > 0),
    height            integer NOT NULL CHECK (height > 0),
    recording         bytea,
    recording_type    text,
    recording_seconds double precision,
    shared            boolean NOT NULL DEFAULT false,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    CHECK ((recording IS NULL) = (recording_type IS NULL) AND (recording IS NULL) = (recording_seconds IS NULL))
);
CREATE INDEX drawings_learner ON drawings (learner_id, created_at DESC, id DESC);
