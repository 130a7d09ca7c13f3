-- Teachers and their classes (issue 17). Any account may teach: its
-- teacher profile names it to its learners (encrypted, as learners' names
-- are). A class has one open join code at most; closing it keeps members.
CREATE TABLE teachers (
    account_id   uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    display_name bytea NOT NULL,
    school       bytea,
    created_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE classes (
    id         uuid PRIMARY KEY,
    teacher_id uuid NOT NULL REFERENCES teachers (account_id) ON DELETE CASCADE,
    name       bytea NOT NULL,
    language   text NOT NULL CHECK (language IN ('en', 'fr', 'it', 'de', 'es')),
    level      text NOT NULL CHECK (level IN ('A1', 'A2', 'B1', 'B2', 'C1', 'C2')),
    join_code  text UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX classes_teacher ON classes (teacher_id, created_at);

-- A learner in a class, by its account's consent; whether it shares its
-- kept recordings with the class's teacher.
CREATE TABLE class_members (
    class_id         uuid NOT NULL REFERENCES classes (id) ON DELETE CASCADE,
    learner_id       uuid NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    shares_recordings boolean NOT NULL DEFAULT false,
    joined_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (class_id, learner_id)
);
CREATE INDEX class_members_learner ON class_members (learner_id);
