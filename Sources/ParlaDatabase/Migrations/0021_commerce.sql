-- Purchases and entitlements belong to the account: a family's learners
-- share what it owns (issue 16). The catalogue itself is content: it is
-- imported with the content version that carries it.
ALTER TABLE content_versions ADD COLUMN catalogue text NOT NULL DEFAULT '';

-- Each store transaction verified, with the signed payload it came in
-- (kept for audit). A renewal is a new transaction of the same chain
-- (`original_transaction_id`). A transaction belongs to one account for good.
CREATE TABLE purchases (
    id                      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    account_id              uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    store                   text NOT NULL CHECK (store IN ('app-store', 'google-play')),
    transaction_id          text NOT NULL,
    original_transaction_id text NOT NULL,
    product                 text NOT NULL,
    store_product           text NOT NULL,
    environment             text NOT NULL,
    purchased_at            timestamptz NOT NULL,
    expires_at              timestamptz,
    revoked_at              timestamptz,
    payload                 text NOT NULL,
    received_at             timestamptz NOT NULL DEFAULT now(),
    UNIQUE (store, transaction_id)
);
CREATE INDEX purchases_account ON purchases (account_id, received_at);

-- What an account owns and until when. A store purchase's chain is one row
-- (`store_key`: the store and its original transaction), which renewals
-- extend and refunds revoke. One trial per account, ever.
CREATE TABLE account_entitlements (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    account_id    uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    product       text NOT NULL,
    source        text NOT NULL CHECK (source IN ('purchase', 'trial', 'grant', 'legacy')),
    store_key     text UNIQUE,
    starts_at     timestamptz NOT NULL DEFAULT now(),
    ends_at       timestamptz,
    grace_ends_at timestamptz,
    revoked_at    timestamptz,
    renews        boolean NOT NULL DEFAULT false,
    note          text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    CHECK (source <> 'purchase' OR store_key IS NOT NULL)
);
CREATE INDEX account_entitlements_account ON account_entitlements (account_id);
CREATE UNIQUE INDEX account_entitlements_one_trial ON account_entitlements (account_id) WHERE source = 'trial';
-- A grant or a legacy claim is held once while it stands.
CREATE UNIQUE INDEX account_entitlements_held ON account_entitlements (account_id, product, source)
WHERE source IN ('grant', 'legacy') AND revoked_at IS NULL;

-- Store notifications as they came (App Store Server Notifications V2,
-- Google Play's real-time notifications): each is taken once, and kept.
CREATE TABLE store_notifications (
    store           text NOT NULL,
    notification_id text NOT NULL,
    kind            text NOT NULL,
    payload         text NOT NULL,
    received_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (store, notification_id)
);

-- What learners owned until now becomes their accounts'.
INSERT INTO account_entitlements (account_id, product, source, starts_at, note)
SELECT DISTINCT ON (l.account_id, e.product)
       l.account_id, e.product,
       CASE WHEN e.source = 'legacy' THEN 'legacy' ELSE 'grant' END,
       e.granted_at, 'from the learner''s entitlements (' || e.source || ')'
FROM entitlements e JOIN learners l ON l.id = e.learner_id
ORDER BY l.account_id, e.product, e.granted_at;
DROP TABLE entitlements;
DROP TABLE product_grants;

-- An account's entitlements changed: "entitlements account". Servers that
-- keep them (AccountEntitlements) drop them, so that a refund closes the
-- content on every server at its commit. More than 100 accounts in one
-- transaction (a bulk change in SQL) send "entitlements *" once.
CREATE FUNCTION account_entitlements_announce() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    account uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.account_id ELSE NEW.account_id END;
    announced integer := coalesce(nullif(current_setting('parla.entitlements_announced', true), '')::integer, 0);
BEGIN
    IF announced < 100 THEN
        PERFORM pg_notify('parla_changes', concat_ws(E'\t', 'entitlements', account));
    ELSIF announced = 100 THEN
        PERFORM pg_notify('parla_changes', E'entitlements\t*');
    ELSE
        RETURN NULL;
    END IF;
    PERFORM set_config('parla.entitlements_announced', (announced + 1)::text, true);
    RETURN NULL;
END
$$;

CREATE TRIGGER account_entitlements_announce AFTER INSERT OR UPDATE OR DELETE ON account_entitlements
FOR EACH ROW EXECUTE FUNCTION account_entitlements_announce();
