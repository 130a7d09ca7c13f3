-- The course (issue 34, Corpora/course): packs with their lessons, stories,
-- sight words and the narrator's lines. Like the rest of the content it is
-- read-only, replaced at each import and read back whole by the server; a
-- pack is one document (its lessons and their screens, as ParlaContent
-- codes them) since nothing queries inside it.
CREATE TABLE course_packs (
    id       text PRIMARY KEY,
    language text NOT NULL,
    section  text NOT NULL,
    position int  NOT NULL,
    body     jsonb NOT NULL
);

CREATE TABLE course_stories (
    id       text PRIMARY KEY,
    language text NOT NULL,
    pack_id  text NOT NULL,
    body     jsonb NOT NULL
);

CREATE TABLE course_sight_words (
    language text PRIMARY KEY,
    words    jsonb NOT NULL
);

-- One row: what the narrator says, per template.
CREATE TABLE course_instructions (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    body     jsonb NOT NULL
);
