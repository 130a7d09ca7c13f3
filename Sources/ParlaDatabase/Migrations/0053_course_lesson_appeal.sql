-- What learners make of each lesson of the course (issue 34; seed 001 4.a:
-- the main menu suggests the most compelling Discover lesson and the best
-- story "by what similar learners finish and enjoy"). Recounted from the
-- lessons table by the analytics round, per language, learner level ('' for
-- every level together) and lesson: the learners who started it, finished
-- it, and finished it more than once (taken again by choice: enjoyed).
CREATE TABLE course_lesson_appeal (
    language      text NOT NULL,
    level         text NOT NULL,
    course_lesson text NOT NULL,
    started       integer NOT NULL,
    finished      integer NOT NULL,
    repeated      integer NOT NULL,
    PRIMARY KEY (language, level, course_lesson)
);
