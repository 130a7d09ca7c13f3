-- Linked identities an owner can see and unlink (issue 32, item 14), and
-- Facebook Login beside Apple and Google (item 15). The public id names a
-- link in the API; the blind index stays the way sign-in finds it.
ALTER TABLE account_identities DROP CONSTRAINT account_identities_provider_check;
ALTER TABLE account_identities ADD CONSTRAINT account_identities_provider_check
    CHECK (provider IN ('apple', 'google', 'facebook'));
ALTER TABLE account_identities ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid();
ALTER TABLE account_identities ADD CONSTRAINT account_identities_id UNIQUE (id);
