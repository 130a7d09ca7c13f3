-- Two-factor sign-in (issue 32, item 13): a TOTP secret per account,
-- sealed as personal data is, live once a first code confirmed it; the
-- last step used, so a code counts once; ten recovery codes, hashed, each
-- good once; and on each session whether it passed the second factor
-- (staff routes answer only such sessions).
CREATE TABLE two_factor (
    account_id   uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    secret       bytea NOT NULL,
    confirmed_at timestamptz,
    last_step    bigint NOT NULL DEFAULT 0,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE recovery_codes (
    account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    code_hash  bytea NOT NULL,
    used_at    timestamptz,
    PRIMARY KEY (account_id, code_hash)
);
ALTER TABLE sessions ADD COLUMN second_factor_at timestamptz;
