-- The class overview reads each member's course level in the class's
-- language (a learner who has only started a course at A1 is at A1): a
-- course added, moved to another level (a placement finished) or dropped
-- announces its learner's classes, as the other rows of 0025 do.
CREATE TRIGGER courses_added_announce_classes AFTER INSERT ON courses
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION learner_rows_announce_classes();
CREATE TRIGGER courses_changed_announce_classes AFTER UPDATE ON courses
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION learner_rows_announce_classes();
CREATE TRIGGER courses_deleted_announce_classes AFTER DELETE ON courses
REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION learner_rows_announce_classes();
CREATE TRIGGER courses_truncated_announce_classes AFTER TRUNCATE ON courses
FOR EACH STATEMENT EXECUTE FUNCTION classes_all_announce();
