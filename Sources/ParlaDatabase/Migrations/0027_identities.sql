-- Sign in with Apple and Google (issue 19): an account may have no
-- password (made by social sign-in), and any number of identities at
-- providers. An identity is found by a blind index of provider and
-- subject; the subject itself is not kept.
ALTER TABLE accounts ALTER COLUMN password_hash DROP NOT NULL;

CREATE TABLE account_identities (
    identity_index bytea PRIMARY KEY,
    provider       text NOT NULL CHECK (provider IN ('apple', 'google')),
    account_id     uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at     timestamptz NOT NULL DEFAULT now(),
    last_used_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX account_identities_account ON account_identities (account_id);
