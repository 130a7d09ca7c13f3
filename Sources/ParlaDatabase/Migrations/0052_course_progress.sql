-- Which lesson of the course a lesson served (issue 34), null for teacher
-- mode: a pack's progress is its lessons finished and when the learner last
-- opened one, read per learner and language in one index scan.
ALTER TABLE lessons ADD COLUMN course_lesson text;
CREATE INDEX lessons_course_progress ON lessons (learner_id, language, course_lesson, touched_at)
    INCLUDE (finished_at, expired_at) WHERE course_lesson IS NOT NULL;
