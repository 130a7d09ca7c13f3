-- A learner may choose to keep their recordings (a voice is personal data:
-- off by default).
ALTER TABLE learners ADD COLUMN keep_recordings boolean NOT NULL DEFAULT false;

-- Every scored attempt at a phrase: the scores, and the recording only when
-- the learner keeps them (encrypted, like every personal field).
CREATE TABLE speech_attempts (
    id            uuid PRIMARY KEY,
    learner_id    uuid NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    language      text NOT NULL CHECK (language IN ('en', 'fr', 'it', 'de', 'es')),
    phrase_id     text,
    text          text NOT NULL,
    overall       real NOT NULL,
    passed        boolean NOT NULL,
    feedback      text NOT NULL,
    duration      real NOT NULL,
    result        jsonb NOT NULL,
    audio         bytea,
    audio_type    text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    CHECK ((audio IS NULL) = (audio_type IS NULL))
);
CREATE INDEX speech_attempts_learner ON speech_attempts (learner_id, created_at DESC, id DESC);
