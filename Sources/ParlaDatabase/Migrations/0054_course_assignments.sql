-- Assignments from the course (issue 34): a pack, or some of its lessons,
-- whose items are `course:<lesson id>`, done once the lesson is finished
-- since the assignment was made.
ALTER TABLE assignments DROP CONSTRAINT assignments_kind_check;
ALTER TABLE assignments ADD CONSTRAINT assignments_kind_check
    CHECK (kind IN ('wordList', 'phrases', 'grammarNote', 'coursePack', 'courseLessons'));

-- A lesson of the course finished (online, or an offline log written
-- finished) changes its learner's classes' assignment completion: their
-- overviews hear it, as they hear answers.
CREATE TRIGGER class_course_lesson_finished_announce AFTER UPDATE OF finished_at ON lessons
FOR EACH ROW WHEN (NEW.course_lesson IS NOT NULL AND NEW.finished_at IS NOT NULL AND OLD.finished_at IS NULL)
EXECUTE FUNCTION announce_row('class', 'learner_id', 'classes of learner');
CREATE TRIGGER class_course_lesson_replayed_announce AFTER INSERT ON lessons
FOR EACH ROW WHEN (NEW.course_lesson IS NOT NULL AND NEW.finished_at IS NOT NULL)
EXECUTE FUNCTION announce_row('class', 'learner_id', 'classes of learner');
