-- A learner's card (LearnerDirectory) also says how the learner sees words
-- (issue 35): its letter case, and the variant of each of its courses. Word
-- pages and word cards read both from memory, so "learner" is announced
-- when either changes too.
DROP TRIGGER learner_announce ON learners;
CREATE TRIGGER learner_announce AFTER DELETE OR UPDATE OF display_name, avatar_id, account_id, letter_case ON learners
FOR EACH ROW EXECUTE FUNCTION announce_row('learner', 'id');

CREATE TRIGGER course_variant_announce_learner AFTER INSERT OR DELETE OR UPDATE OF variant ON courses
FOR EACH ROW EXECUTE FUNCTION announce_row('learner', 'learner_id');
CREATE TRIGGER course_truncated_announce_learner AFTER TRUNCATE ON courses
FOR EACH STATEMENT EXECUTE FUNCTION announce_all('learner');
