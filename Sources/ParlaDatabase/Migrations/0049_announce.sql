-- One way to announce a change (issue 33): `announce(topic, key)` tells
-- every server listening on `parla_changes` that what it keeps under `key`
-- for `topic` changed, at commit, in commit order. Each table's trigger
-- calls it in one line, through the three trigger functions below; the
-- registry of what servers keep (Sources/ParlaKept/Kept.swift) lists the
-- same tables per topic, and a test compares the two (KeptTests).
--
-- Within a transaction each key is announced once per topic. A transaction
-- that names more than 100 keys of a topic (a bulk change in SQL) announces
-- "topic *" once instead: every server drops all it keeps for the topic.
-- What a transaction announced stays readable until it ends, per topic, in
-- the setting `parla.announced_<topic>` ("*" or the keys, one per line), so
-- that the server that made the change can drop what it keeps at once.
--
-- This replaces the announcing functions of 0018 to 0047, whose triggers it
-- drops and makes again, with the same events and conditions.
CREATE FUNCTION announce(topic text, key text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    setting text := 'parla.announced_' || topic;
    said text := coalesce(current_setting(setting, true), '');
BEGIN
    IF key IS NULL OR said = '*' OR position(E'\n' || key || E'\n' IN said) > 0 THEN
        RETURN;
    ELSIF key = '*' OR length(said) - length(replace(said, E'\n', '')) > 100 THEN
        PERFORM pg_notify('parla_changes', topic || E'\t*');
        PERFORM set_config(setting, '*', true);
    ELSE
        PERFORM pg_notify('parla_changes', topic || E'\t' || key);
        PERFORM set_config(setting, CASE said WHEN '' THEN E'\n' ELSE said END || key || E'\n', true);
    END IF;
END
$$;

-- A row's key, row by row: `announce_row(topic, column [, via])` announces
-- the column's value of the old row and of the new one, or what `via`
-- finds from it: 'account of learner' (the learner's account), 'classes of
-- learner' (the classes the learner is in).
CREATE FUNCTION announce_key(topic text, value text, via text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF value IS NULL THEN
        RETURN;
    ELSIF via IS NULL THEN
        PERFORM announce(topic, value);
    ELSIF via = 'account of learner' THEN
        PERFORM announce(topic, l.account_id::text) FROM learners l WHERE l.id = value::uuid;
    ELSIF via = 'classes of learner' THEN
        PERFORM announce(topic, m.class_id::text) FROM class_members m WHERE m.learner_id = value::uuid;
    ELSE
        RAISE EXCEPTION 'announce: unknown way %', via;
    END IF;
END
$$;

CREATE FUNCTION announce_row() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    topic text := TG_ARGV[0];
    key_column text := TG_ARGV[1];
    via text := CASE WHEN TG_NARGS > 2 THEN TG_ARGV[2] END;
    old_key text := CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) ->> key_column END;
    new_key text := CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) ->> key_column END;
BEGIN
    PERFORM announce_key(topic, old_key, via);
    IF new_key IS DISTINCT FROM old_key THEN PERFORM announce_key(topic, new_key, via); END IF;
    RETURN NULL;
END
$$;

-- The same once a statement, from its transition table `changed`: an
-- answer writes several abilities, and a learner in no class costs one
-- index lookup. 'classes of account' follows an account's learners.
CREATE FUNCTION announce_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    topic text := TG_ARGV[0];
    key_column text := TG_ARGV[1];
    via text := CASE WHEN TG_NARGS > 2 THEN TG_ARGV[2] END;
BEGIN
    IF via = 'classes of learner' THEN
        EXECUTE format(
            'SELECT announce(%L, m.class_id::text) FROM (SELECT DISTINCT %I AS id FROM changed) r
             JOIN class_members m ON m.learner_id = r.id', topic, key_column);
    ELSIF via = 'classes of account' THEN
        EXECUTE format(
            'SELECT announce(%L, m.class_id::text) FROM (SELECT DISTINCT %I AS id FROM changed) r
             JOIN learners l ON l.account_id = r.id JOIN class_members m ON m.learner_id = l.id', topic, key_column);
    ELSE
        EXECUTE format('SELECT announce(%L, k::text) FROM (SELECT DISTINCT %I AS k FROM changed) r', topic, key_column);
    END IF;
    RETURN NULL;
END
$$;

-- A table emptied at once: everything of the topic.
CREATE FUNCTION announce_all() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM announce(TG_ARGV[0], '*');
    RETURN NULL;
END
$$;

-- The old triggers and functions go.
DROP TRIGGER leaderboard_entries_announce ON leaderboard_entries;
DROP TRIGGER sessions_announce ON sessions;
DROP TRIGGER sessions_shortened_announce ON sessions;
DROP TRIGGER learners_announce ON learners;
DROP TRIGGER accounts_announce ON accounts;
DROP TRIGGER learners_announce_account ON learners;
DROP TRIGGER learner_pictures_announce_account ON learner_pictures;
DROP TRIGGER courses_announce_account ON courses;
DROP TRIGGER ability_history_announce_account ON ability_history;
DROP TRIGGER ability_history_level_announce_account ON ability_history;
DROP TRIGGER abilities_announce_account ON abilities;
DROP TRIGGER abilities_started_announce_account ON abilities;
DROP TRIGGER account_entitlements_announce ON account_entitlements;
DROP TRIGGER classes_announce ON classes;
DROP TRIGGER class_members_announce ON class_members;
DROP TRIGGER assignments_announce ON assignments;
DROP TRIGGER learners_announce_classes ON learners;
DROP TRIGGER lesson_answers_added_announce_classes ON lesson_answers;
DROP TRIGGER lesson_answers_deleted_announce_classes ON lesson_answers;
DROP TRIGGER abilities_added_announce_classes ON abilities;
DROP TRIGGER abilities_changed_announce_classes ON abilities;
DROP TRIGGER abilities_deleted_announce_classes ON abilities;
DROP TRIGGER ability_history_added_announce_classes ON ability_history;
DROP TRIGGER ability_history_changed_announce_classes ON ability_history;
DROP TRIGGER ability_history_deleted_announce_classes ON ability_history;
DROP TRIGGER speech_attempts_added_announce_classes ON speech_attempts;
DROP TRIGGER speech_attempts_deleted_announce_classes ON speech_attempts;
DROP TRIGGER games_added_announce_classes ON games;
DROP TRIGGER games_deleted_announce_classes ON games;
DROP TRIGGER courses_added_announce_classes ON courses;
DROP TRIGGER courses_changed_announce_classes ON courses;
DROP TRIGGER courses_deleted_announce_classes ON courses;
DROP TRIGGER account_entitlements_added_announce_classes ON account_entitlements;
DROP TRIGGER account_entitlements_changed_announce_classes ON account_entitlements;
DROP TRIGGER account_entitlements_deleted_announce_classes ON account_entitlements;
DROP TRIGGER classes_truncated_announce ON classes;
DROP TRIGGER class_members_truncated_announce ON class_members;
DROP TRIGGER assignments_truncated_announce ON assignments;
DROP TRIGGER learners_truncated_announce_classes ON learners;
DROP TRIGGER lesson_answers_truncated_announce_classes ON lesson_answers;
DROP TRIGGER abilities_truncated_announce_classes ON abilities;
DROP TRIGGER ability_history_truncated_announce_classes ON ability_history;
DROP TRIGGER speech_attempts_truncated_announce_classes ON speech_attempts;
DROP TRIGGER games_truncated_announce_classes ON games;
DROP TRIGGER courses_truncated_announce_classes ON courses;
DROP TRIGGER account_entitlements_truncated_announce_classes ON account_entitlements;
DROP FUNCTION leaderboard_entries_announce();
DROP FUNCTION sessions_announce();
DROP FUNCTION learners_announce();
DROP FUNCTION accounts_announce();
DROP FUNCTION learners_announce_account();
DROP FUNCTION learner_rows_announce_account();
DROP FUNCTION account_announce(uuid);
DROP FUNCTION account_entitlements_announce();
DROP FUNCTION classes_announce();
DROP FUNCTION class_rows_announce();
DROP FUNCTION learners_announce_classes();
DROP FUNCTION learner_rows_announce_classes();
DROP FUNCTION account_rows_announce_classes();
DROP FUNCTION classes_all_announce();
DROP FUNCTION class_announce(uuid);

-- "entry": a leaderboard entry, kept in step (LeaderboardRanks), so its key
-- is what it holds: "language kind period learner score tenths seconds
-- score_at seconds_at", the instants in microseconds since 2000-01-01 UTC
-- (as PostgreSQL keeps them), so that memory orders ties exactly as the
-- table does; "language kind period learner -" when it was deleted.
CREATE FUNCTION leaderboard_entry_key(entry leaderboard_entries, deleted boolean) RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN deleted THEN concat_ws(E'\t', entry.language, entry.kind, entry.period, entry.learner_id, '-')
        ELSE concat_ws(E'\t', entry.language, entry.kind, entry.period, entry.learner_id, entry.best_score,
            leaderboard_bucket('time', 0, entry.best_seconds), entry.best_seconds,
            parla_microseconds(entry.score_at), parla_microseconds(entry.seconds_at)) END
$$;
-- The exact time is sent as text: shortest exact digits, whatever the
-- session that wrote the entry set.
ALTER FUNCTION leaderboard_entry_key(leaderboard_entries, boolean) SET extra_float_digits = 1;

-- `announce_entry(topic)`: each change of an entry, with what it holds.
CREATE FUNCTION announce_entry() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM announce(TG_ARGV[0], CASE WHEN TG_OP = 'DELETE' THEN leaderboard_entry_key(OLD, true) ELSE leaderboard_entry_key(NEW, false) END);
    RETURN NULL;
END
$$;

CREATE TRIGGER entry_announce AFTER INSERT OR DELETE OR UPDATE OF best_score, best_seconds ON leaderboard_entries
FOR EACH ROW EXECUTE FUNCTION announce_entry('entry');
CREATE TRIGGER entry_truncated_announce AFTER TRUNCATE ON leaderboard_entries
FOR EACH STATEMENT EXECUTE FUNCTION announce_all('entry');

-- "session": a session ended (signed out, its account deleted) or was cut
-- short by hand (its expiry moved earlier; a touch only moves it later).
CREATE TRIGGER session_announce AFTER DELETE ON sessions
FOR EACH ROW EXECUTE FUNCTION announce_row('session', 'id');
CREATE TRIGGER session_shortened_announce AFTER UPDATE OF expires_at ON sessions
FOR EACH ROW WHEN (NEW.expires_at < OLD.expires_at) EXECUTE FUNCTION announce_row('session', 'id');
CREATE TRIGGER session_truncated_announce AFTER TRUNCATE ON sessions
FOR EACH STATEMENT EXECUTE FUNCTION announce_all('session');

-- "learner": a learner's public card (renamed, another avatar, moved, deleted).
CREATE TRIGGER learner_announce AFTER DELETE OR UPDATE OF display_name, avatar_id, account_id ON learners
FOR EACH ROW EXECUTE FUNCTION announce_row('learner', 'id');
CREATE TRIGGER learner_truncated_announce AFTER TRUNCATE ON learners
FOR EACH STATEMENT EXECUTE FUNCTION announce_all('learner');

-- "account": an account's profile (`GET /v1/me`: the account, its learners,
-- their pictures, their courses, each course's level and start). An answer
-- that changes neither a course's level nor whether it started announces
-- nothing.
CREATE TRIGGER account_announce AFTER UPDATE OR DELETE ON accounts
FOR EACH ROW EXECUTE FUNCTION announce_row('account', 'id');
CREATE TRIGGER account_learners_announce AFTER INSERT OR UPDATE OR DELETE ON learners
FOR EACH ROW EXECUTE FUNCTION announce_row('account', 'account_id');
CREATE TRIGGER account_pictures_announce AFTER INSERT OR UPDATE OR DELETE ON learner_pictures
FOR EACH ROW EXECUTE FUNCTION announce_row('account', 'learner_id', 'account of learner');
CREATE TRIGGER account_courses_announce AFTER INSERT OR UPDATE OR DELETE ON courses
FOR EACH ROW EXECUTE FUNCTION announce_row('account', 'learner_id', 'account of learner');
CREATE TRIGGER account_level_added_announce AFTER INSERT ON ability_history
FOR EACH ROW WHEN (NEW.skill = 'overall') EXECUTE FUNCTION announce_row('account', 'learner_id', 'account of learner');
CREATE TRIGGER account_level_changed_announce AFTER UPDATE ON ability_history
FOR EACH ROW WHEN (NEW.skill = 'overall' AND NEW.level IS DISTINCT FROM OLD.level)
EXECUTE FUNCTION announce_row('account', 'learner_id', 'account of learner');
CREATE TRIGGER account_started_announce AFTER INSERT ON abilities
FOR EACH ROW WHEN (NEW.responses > 0) EXECUTE FUNCTION announce_row('account', 'learner_id', 'account of learner');
CREATE TRIGGER account_started_changed_announce AFTER UPDATE ON abilities
FOR EACH ROW WHEN (OLD.responses = 0 AND NEW.responses > 0) EXECUTE FUNCTION announce_row('account', 'learner_id', 'account of learner');
CREATE TRIGGER account_truncated_announce AFTER TRUNCATE ON accounts
FOR EACH STATEMENT EXECUTE FUNCTION announce_all('account');
CREATE TRIGGER account_learners_truncated_announce AFTER TRUNCATE ON learners
FOR EACH STATEMENT EXECUTE FUNCTION announce_all('account');
CREATE TRIGGER account_pictures_truncated_announce AFTER TRUNCATE ON learner_pictures
FOR EACH STATEMENT EXECUTE FUNCTION announce_all('account');
CREATE TRIGGER account_courses_truncated_announce AFTER TRUNCATE ON courses
FOR EACH STATEMENT EXECUTE FUNCTION announce_all('account');
CREATE TRIGGER account_levels_truncated_announce AFTER TRUNCATE ON ability_history
FOR EACH STATEMENT EXECUTE FUNCTION announce_all('account');
CREATE TRIGGER account_abilities_truncated_announce AFTER TRUNCATE ON abilities
FOR EACH STATEMENT EXECUTE FUNCTION announce_all('account');

-- "entitlements": an account's entitlements (a purchase, a renewal, a
-- refund, a grant): a refund closes the content on every server at its commit.
CREATE TRIGGER entitlements_announce AFTER INSERT OR UPDATE OR DELETE ON account_entitlements
FOR EACH ROW EXECUTE FUNCTION announce_row('entitlements', 'account_id');
CREATE TRIGGER entitlements_truncated_announce AFTER TRUNCATE ON account_entitlements
FOR EACH STATEMENT EXECUTE FUNCTION announce_all('entitlements');

-- "class": a class overview's inputs (the class, its members and
-- assignments; of each member its name, answers, abilities and their
-- history, courses, recordings, games, and its account's entitlements,
-- which say what of an assignment it may open). Answers, recordings and
-- games are announced when added or deleted: what the overview reads of
-- them never changes in place. A transition table serves one event a trigger.
CREATE TRIGGER class_announce AFTER UPDATE OR DELETE ON classes
FOR EACH ROW EXECUTE FUNCTION announce_row('class', 'id');
CREATE TRIGGER class_members_announce AFTER INSERT OR UPDATE OR DELETE ON class_members
FOR EACH ROW EXECUTE FUNCTION announce_row('class', 'class_id');
CREATE TRIGGER class_assignments_announce AFTER INSERT OR UPDATE OR DELETE ON assignments
FOR EACH ROW EXECUTE FUNCTION announce_row('class', 'class_id');
CREATE TRIGGER class_names_announce AFTER UPDATE OF display_name ON learners
FOR EACH ROW EXECUTE FUNCTION announce_row('class', 'id', 'classes of learner');
CREATE TRIGGER class_answers_added_announce AFTER INSERT ON lesson_answers
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION announce_rows('class', 'learner_id', 'classes of learner');
CREATE TRIGGER class_answers_deleted_announce AFTER DELETE ON lesson_answers
REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION announce_rows('class', 'learner_id', 'classes of learner');
CREATE TRIGGER class_abilities_added_announce AFTER INSERT ON abilities
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION announce_rows('class', 'learner_id', 'classes of learner');
CREATE TRIGGER class_abilities_changed_announce AFTER UPDATE ON abilities
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION announce_rows('class', 'learner_id', 'classes of learner');
CREATE TRIGGER class_abilities_deleted_announce AFTER DELETE ON abilities
REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION announce_rows('class', 'learner_id', 'classes of learner');
CREATE TRIGGER class_levels_added_announce AFTER INSERT ON ability_history
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION announce_rows('class', 'learner_id', 'classes of learner');
CREATE TRIGGER class_levels_changed_announce AFTER UPDATE ON ability_history
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION announce_rows('class', 'learner_id', 'classes of learner');
CREATE TRIGGER class_levels_deleted_announce AFTER DELETE ON ability_history
REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION announce_rows('class', 'learner_id', 'classes of learner');
CREATE TRIGGER class_recordings_added_announce AFTER INSERT ON speech_attempts
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION announce_rows('class', 'learner_id', 'classes of learner');
CREATE TRIGGER class_recordings_deleted_announce AFTER DELETE ON speech_attempts
REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION announce_rows('class', 'learner_id', 'classes of learner');
CREATE TRIGGER class_games_added_announce AFTER INSERT ON games
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION announce_rows('class', 'learner_id', 'classes of learner');
CREATE TRIGGER class_games_deleted_announce AFTER DELETE ON games
REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION announce_rows('class', 'learner_id', 'classes of learner');
CREATE TRIGGER class_courses_added_announce AFTER INSERT ON courses
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION announce_rows('class', 'learner_id', 'classes of learner');
CREATE TRIGGER class_courses_changed_announce AFTER UPDATE ON courses
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION announce_rows('class', 'learner_id', 'classes of learner');
CREATE TRIGGER class_courses_deleted_announce AFTER DELETE ON courses
REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION announce_rows('class', 'learner_id', 'classes of learner');
CREATE TRIGGER class_entitlements_added_announce AFTER INSERT ON account_entitlements
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION announce_rows('class', 'account_id', 'classes of account');
CREATE TRIGGER class_entitlements_changed_announce AFTER UPDATE ON account_entitlements
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION announce_rows('class', 'account_id', 'classes of account');
CREATE TRIGGER class_entitlements_deleted_announce AFTER DELETE ON account_entitlements
REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION announce_rows('class', 'account_id', 'classes of account');
CREATE TRIGGER class_truncated_announce AFTER TRUNCATE ON classes
FOR EACH STATEMENT EXECUTE FUNCTION announce_all('class');
CREATE TRIGGER class_members_truncated_announce AFTER TRUNCATE ON class_members
FOR EACH STATEMENT EXECUTE FUNCTION announce_all('class');
CREATE TRIGGER class_assignments_truncated_announce AFTER TRUNCATE ON assignments
FOR EACH STATEMENT EXECUTE FUNCTION announce_all('class');
CREATE TRIGGER class_names_truncated_announce AFTER TRUNCATE ON learners
FOR EACH STATEMENT EXECUTE FUNCTION announce_all('class');
CREATE TRIGGER class_answers_truncated_announce AFTER TRUNCATE ON lesson_answers
FOR EACH STATEMENT EXECUTE FUNCTION announce_all('class');
CREATE TRIGGER class_abilities_truncated_announce AFTER TRUNCATE ON abilities
FOR EACH STATEMENT EXECUTE FUNCTION announce_all('class');
CREATE TRIGGER class_levels_truncated_announce AFTER TRUNCATE ON ability_history
FOR EACH STATEMENT EXECUTE FUNCTION announce_all('class');
CREATE TRIGGER class_recordings_truncated_announce AFTER TRUNCATE ON speech_attempts
FOR EACH STATEMENT EXECUTE FUNCTION announce_all('class');
CREATE TRIGGER class_games_truncated_announce AFTER TRUNCATE ON games
FOR EACH STATEMENT EXECUTE FUNCTION announce_all('class');
CREATE TRIGGER class_courses_truncated_announce AFTER TRUNCATE ON courses
FOR EACH STATEMENT EXECUTE FUNCTION announce_all('class');
CREATE TRIGGER class_entitlements_truncated_announce AFTER TRUNCATE ON account_entitlements
FOR EACH STATEMENT EXECUTE FUNCTION announce_all('class');
