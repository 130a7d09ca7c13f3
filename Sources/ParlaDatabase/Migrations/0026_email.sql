-- Email (issue 19): verified addresses, single-use tokens sent by email,
-- and the outbox every email goes through.

-- When the current email was confirmed; NULL until then (and again after
-- a change). An unverified email still signs in.
ALTER TABLE accounts ADD COLUMN email_verified_at timestamptz;

-- Password-reset and email-verification tokens: stored as SHA-256 hashes,
-- used once (`used_at`), valid until `expires_at`. A verification is for
-- the address it was sent to (`email_index`): after a change it no longer
-- confirms anything.
CREATE TABLE account_tokens (
    token_hash  bytea PRIMARY KEY,
    account_id  uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    purpose     text NOT NULL CHECK (purpose IN ('password_reset', 'email_verification')),
    email_index bytea NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz
);
CREATE INDEX account_tokens_account ON account_tokens (account_id, purpose, created_at);

-- Every email, written in the same transaction as the change that sends
-- it and delivered by workers (`FOR UPDATE SKIP LOCKED`). Recipient and
-- message are sealed like any personal field; the message is erased once
-- sent (it may carry a token). `kind` says what it was, for operators.
CREATE TABLE outbox (
    id              uuid PRIMARY KEY,
    kind            text NOT NULL,
    account_id      uuid REFERENCES accounts (id) ON DELETE CASCADE,
    sender          text NOT NULL,
    recipient       bytea NOT NULL,
    message         bytea,
    created_at      timestamptz NOT NULL DEFAULT now(),
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_error      text,
    sent_at         timestamptz,
    failed_at       timestamptz
);
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE sent_at IS NULL AND failed_at IS NULL;
CREATE INDEX outbox_account ON outbox (account_id);
