-- Sign-in on the web dashboard with Apple or Google (issue 32, item 14):
-- an attempt lives from the redirect to the provider until its callback,
-- ten minutes at most, and is taken once. Only hashes are kept: of the
-- state (the callback's key) and of the secret in the browser's cookie
-- (the attempt is that browser's); the PKCE verifier and the nonce are
-- derived from that secret, so they are never stored.
CREATE TABLE web_sign_ins (
    state_hash   bytea PRIMARY KEY,
    browser_hash bytea NOT NULL,
    provider     text NOT NULL,
    expires_at   timestamptz NOT NULL
);
CREATE INDEX web_sign_ins_expiry ON web_sign_ins (expires_at);
-- An account with two-factor sign-in, once its provider said who it is,
-- waits here for its code: the hash of the browser's cookie, briefly.
CREATE TABLE web_sign_in_codes (
    token_hash bytea PRIMARY KEY,
    account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    expires_at timestamptz NOT NULL
);
CREATE INDEX web_sign_in_codes_expiry ON web_sign_in_codes (expires_at);
