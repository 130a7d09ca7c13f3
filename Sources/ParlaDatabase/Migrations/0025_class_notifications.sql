-- A class overview's inputs changed (the class, its members and
-- assignments, and of each member: its name, answers, abilities and their
-- history, recordings and games): "class id". Servers that keep the
-- overview in memory (ClassOverviews) drop it. Answers, recordings and
-- games are announced when added or deleted: what the overview reads of
-- them never changes in place. A truncation announces "class *".
--
-- Each class is announced once a transaction, however many rows of it
-- change; a transaction that changes more than 100 classes' inputs (a
-- bulk load in SQL) sends "class *" once instead: every overview is
-- dropped.
CREATE FUNCTION class_announce(class uuid) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    announced text := coalesce(current_setting('parla.classes_announced', true), '');
BEGIN
    IF announced = '*' OR position(class::text IN announced) > 0 THEN
        RETURN;
    ELSIF length(announced) >= 100 * 37 THEN
        PERFORM pg_notify('parla_changes', E'class\t*');
        PERFORM set_config('parla.classes_announced', '*', true);
    ELSE
        PERFORM pg_notify('parla_changes', concat_ws(E'\t', 'class', class));
        PERFORM set_config('parla.classes_announced', announced || class::text || ' ', true);
    END IF;
END
$$;

CREATE FUNCTION classes_announce() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM class_announce(OLD.id);
    RETURN NULL;
END
$$;

CREATE TRIGGER classes_announce AFTER UPDATE OR DELETE ON classes
FOR EACH ROW EXECUTE FUNCTION classes_announce();

-- A row that belongs to a class: its members, its assignments.
CREATE FUNCTION class_rows_announce() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN PERFORM class_announce(OLD.class_id); END IF;
    IF TG_OP <> 'DELETE' THEN PERFORM class_announce(NEW.class_id); END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER class_members_announce AFTER INSERT OR UPDATE OR DELETE ON class_members
FOR EACH ROW EXECUTE FUNCTION class_rows_announce();

CREATE TRIGGER assignments_announce AFTER INSERT OR UPDATE OR DELETE ON assignments
FOR EACH ROW EXECUTE FUNCTION class_rows_announce();

-- A member renamed.
CREATE FUNCTION learners_announce_classes() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM class_announce(m.class_id) FROM class_members m WHERE m.learner_id = OLD.id;
    RETURN NULL;
END
$$;

CREATE TRIGGER learners_announce_classes AFTER UPDATE OF display_name ON learners
FOR EACH ROW EXECUTE FUNCTION learners_announce_classes();

-- Rows that belong to learners (`changed`, the statement's transition
-- table): the classes of each. Once a statement, not once a row: an
-- answer writes several abilities, and a learner in no class costs one
-- index lookup.
CREATE FUNCTION learner_rows_announce_classes() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM class_announce(m.class_id)
    FROM (SELECT DISTINCT learner_id FROM changed) r JOIN class_members m ON m.learner_id = r.learner_id;
    RETURN NULL;
END
$$;

-- A transition table serves one event a trigger.
CREATE TRIGGER lesson_answers_added_announce_classes AFTER INSERT ON lesson_answers
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION learner_rows_announce_classes();
CREATE TRIGGER lesson_answers_deleted_announce_classes AFTER DELETE ON lesson_answers
REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION learner_rows_announce_classes();

CREATE TRIGGER abilities_added_announce_classes AFTER INSERT ON abilities
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION learner_rows_announce_classes();
CREATE TRIGGER abilities_changed_announce_classes AFTER UPDATE ON abilities
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION learner_rows_announce_classes();
CREATE TRIGGER abilities_deleted_announce_classes AFTER DELETE ON abilities
REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION learner_rows_announce_classes();

CREATE TRIGGER ability_history_added_announce_classes AFTER INSERT ON ability_history
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION learner_rows_announce_classes();
CREATE TRIGGER ability_history_changed_announce_classes AFTER UPDATE ON ability_history
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION learner_rows_announce_classes();
CREATE TRIGGER ability_history_deleted_announce_classes AFTER DELETE ON ability_history
REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION learner_rows_announce_classes();

CREATE TRIGGER speech_attempts_added_announce_classes AFTER INSERT ON speech_attempts
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION learner_rows_announce_classes();
CREATE TRIGGER speech_attempts_deleted_announce_classes AFTER DELETE ON speech_attempts
REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION learner_rows_announce_classes();

CREATE TRIGGER games_added_announce_classes AFTER INSERT ON games
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION learner_rows_announce_classes();
CREATE TRIGGER games_deleted_announce_classes AFTER DELETE ON games
REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION learner_rows_announce_classes();

-- A table emptied at once: every class.
CREATE FUNCTION classes_all_announce() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('parla_changes', E'class\t*');
    RETURN NULL;
END
$$;

CREATE TRIGGER classes_truncated_announce AFTER TRUNCATE ON classes
FOR EACH STATEMENT EXECUTE FUNCTION classes_all_announce();
CREATE TRIGGER class_members_truncated_announce AFTER TRUNCATE ON class_members
FOR EACH STATEMENT EXECUTE FUNCTION classes_all_announce();
CREATE TRIGGER assignments_truncated_announce AFTER TRUNCATE ON assignments
FOR EACH STATEMENT EXECUTE FUNCTION classes_all_announce();
CREATE TRIGGER learners_truncated_announce_classes AFTER TRUNCATE ON learners
FOR EACH STATEMENT EXECUTE FUNCTION classes_all_announce();
CREATE TRIGGER lesson_answers_truncated_announce_classes AFTER TRUNCATE ON lesson_answers
FOR EACH STATEMENT EXECUTE FUNCTION classes_all_announce();
CREATE TRIGGER abilities_truncated_announce_classes AFTER TRUNCATE ON abilities
FOR EACH STATEMENT EXECUTE FUNCTION classes_all_announce();
CREATE TRIGGER ability_history_truncated_announce_classes AFTER TRUNCATE ON ability_history
FOR EACH STATEMENT EXECUTE FUNCTION classes_all_announce();
CREATE TRIGGER speech_attempts_truncated_announce_classes AFTER TRUNCATE ON speech_attempts
FOR EACH STATEMENT EXECUTE FUNCTION classes_all_announce();
CREATE TRIGGER games_truncated_announce_classes AFTER TRUNCATE ON games
FOR EACH STATEMENT EXECUTE FUNCTION classes_all_announce();
