-- A provider's id_token that proves a fresh sign-in (the owner's proof for
-- an email change, a first password, two-factor, joining a class; a
-- sign-in to link) counts once: its SHA-256 is kept until the token ends.
CREATE TABLE spent_id_tokens (
    token_hash bytea PRIMARY KEY,
    expires_at timestamptz NOT NULL
);
CREATE INDEX spent_id_tokens_expiry ON spent_id_tokens (expires_at);
