-- An account's profile changed (`GET /v1/me`: the account, its learners,
-- their pictures, their courses and each course's level and start): "account
-- id". Servers that hold the profile in memory (AccountProfiles) drop it.
--
-- A transaction that changes more than 100 accounts' profiles (a bulk load
-- in SQL) sends "account *" once instead: every profile is dropped. Each
-- notification would otherwise be read by every listener of the cluster.
CREATE FUNCTION account_announce(account uuid) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    announced integer := coalesce(nullif(current_setting('parla.accounts_announced', true), '')::integer, 0);
BEGIN
    IF announced < 100 THEN
        PERFORM pg_notify('parla_changes', concat_ws(E'\t', 'account', account));
    ELSIF announced = 100 THEN
        PERFORM pg_notify('parla_changes', E'account\t*');
    ELSE
        RETURN;
    END IF;
    PERFORM set_config('parla.accounts_announced', (announced + 1)::text, true);
END
$$;

CREATE FUNCTION accounts_announce() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM account_announce(OLD.id);
    RETURN NULL;
END
$$;

CREATE TRIGGER accounts_announce AFTER UPDATE OR DELETE ON accounts
FOR EACH ROW EXECUTE FUNCTION accounts_announce();

CREATE FUNCTION learners_announce_account() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN PERFORM account_announce(OLD.account_id); END IF;
    IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.account_id <> OLD.account_id) THEN
        PERFORM account_announce(NEW.account_id);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER learners_announce_account AFTER INSERT OR UPDATE OR DELETE ON learners
FOR EACH ROW EXECUTE FUNCTION learners_announce_account();

-- A change to a row that belongs to a learner: its account's profile.
-- A learner deleted with its rows has announced its account already.
CREATE FUNCTION learner_rows_announce_account() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    learner uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.learner_id ELSE NEW.learner_id END;
BEGIN
    PERFORM account_announce(l.account_id) FROM learners l WHERE l.id = learner;
    RETURN NULL;
END
$$;

CREATE TRIGGER learner_pictures_announce_account AFTER INSERT OR UPDATE OR DELETE ON learner_pictures
FOR EACH ROW EXECUTE FUNCTION learner_rows_announce_account();

CREATE TRIGGER courses_announce_account AFTER INSERT OR UPDATE OR DELETE ON courses
FOR EACH ROW EXECUTE FUNCTION learner_rows_announce_account();

-- Only what the profile shows: a course's level (the latest day's overall
-- level) and whether it has started (some skill has a response). An answer
-- that changes neither announces nothing.
CREATE TRIGGER ability_history_announce_account AFTER INSERT ON ability_history
FOR EACH ROW WHEN (NEW.skill = 'overall') EXECUTE FUNCTION learner_rows_announce_account();

CREATE TRIGGER ability_history_level_announce_account AFTER UPDATE ON ability_history
FOR EACH ROW WHEN (NEW.skill = 'overall' AND NEW.level IS DISTINCT FROM OLD.level)
EXECUTE FUNCTION learner_rows_announce_account();

CREATE TRIGGER abilities_announce_account AFTER INSERT ON abilities
FOR EACH ROW WHEN (NEW.responses > 0) EXECUTE FUNCTION learner_rows_announce_account();

CREATE TRIGGER abilities_started_announce_account AFTER UPDATE ON abilities
FOR EACH ROW WHEN (OLD.responses = 0 AND NEW.responses > 0) EXECUTE FUNCTION learner_rows_announce_account();

-- A session cut short by hand (its expiry moved earlier) ends for the
-- servers that keep it as a signed-out one does; a touch only moves it later.
CREATE TRIGGER sessions_shortened_announce AFTER UPDATE OF expires_at ON sessions
FOR EACH ROW WHEN (NEW.expires_at < OLD.expires_at) EXECUTE FUNCTION sessions_announce();
