-- Guests merged into accounts (issue 19): a store purchase the app tied
-- to the guest's id (App Store's appAccountToken, Google Play's obfuscated
-- account id) still belongs to the account the guest joined.
CREATE TABLE merged_accounts (
    former_id  uuid PRIMARY KEY,
    account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    merged_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX merged_accounts_account ON merged_accounts (account_id);
