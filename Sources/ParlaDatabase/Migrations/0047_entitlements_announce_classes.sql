-- A class's assignments count, for each member, only the items its
-- account may open (issue 32, item 9): an account's entitlements changed
-- (a purchase, a refund, a grant) announces the classes of its learners,
-- so that kept class overviews are read again, as the rows of 0025 do.
CREATE FUNCTION account_rows_announce_classes() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM class_announce(m.class_id)
    FROM (SELECT DISTINCT account_id FROM changed) r
    JOIN learners l ON l.account_id = r.account_id
    JOIN class_members m ON m.learner_id = l.id;
    RETURN NULL;
END
$$;

CREATE TRIGGER account_entitlements_added_announce_classes AFTER INSERT ON account_entitlements
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION account_rows_announce_classes();
CREATE TRIGGER account_entitlements_changed_announce_classes AFTER UPDATE ON account_entitlements
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION account_rows_announce_classes();
CREATE TRIGGER account_entitlements_deleted_announce_classes AFTER DELETE ON account_entitlements
REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION account_rows_announce_classes();
CREATE TRIGGER account_entitlements_truncated_announce_classes AFTER TRUNCATE ON account_entitlements
FOR EACH STATEMENT EXECUTE FUNCTION classes_all_announce();
