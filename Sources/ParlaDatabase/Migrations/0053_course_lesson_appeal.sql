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

-- The recount, in one transaction with its caller: every row afresh.
CREATE FUNCTION recount_course_lesson_appeal() RETURNS void LANGUAGE sql AS $$
    DELETE FROM course_lesson_appeal;
    WITH taken AS (
        SELECT l.language, coalesce(c.level, '') AS level, l.course_lesson,
               count(*) FILTER (WHERE l.finished_at IS NOT NULL) AS finishes
        FROM lessons l LEFT JOIN courses c USING (learner_id, language)
        WHERE l.course_lesson IS NOT NULL
        GROUP BY l.learner_id, 1, 2, 3
    )
    INSERT INTO course_lesson_appeal (language, level, course_lesson, started, finished, repeated)
    SELECT language, CASE WHEN GROUPING(level) = 1 THEN '' ELSE level END, course_lesson,
           count(*), count(*) FILTER (WHERE finishes > 0), count(*) FILTER (WHERE finishes > 1)
    FROM taken
    GROUP BY GROUPING SETS ((language, level, course_lesson), (language, course_lesson));
$$;
