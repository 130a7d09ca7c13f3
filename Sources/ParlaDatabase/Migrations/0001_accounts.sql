-- Accounts, their devices and their learner profiles.
-- Personal fields (names, email, device names, pictures) are AES-GCM
-- ciphertexts (bytea); the email is found through an HMAC blind index.

CREATE TABLE accounts (
    id                uuid PRIMARY KEY,
    first_name        bytea NOT NULL,
    last_name         bytea NOT NULL,
    email             bytea NOT NULL,
    email_index       bytea NOT NULL UNIQUE,
    password_hash     text NOT NULL,
    ui_language       text NOT NULL CHECK (ui_language IN ('en', 'fr', 'it', 'de', 'es')),
    terms_version     text NOT NULL,
    terms_accepted_at timestamptz NOT NULL,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sessions (
    id           uuid PRIMARY KEY,
    account_id   uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    token_hash   bytea NOT NULL UNIQUE,
    device_name  bytea,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id, last_used_at DESC);

-- One row per failed sign-in, for throttling; old rows are pruned as new
-- ones arrive.
CREATE TABLE login_failures (
    email_index bytea NOT NULL,
    failed_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_failures_email ON login_failures (email_index, failed_at);

CREATE TABLE learners (
    id               uuid PRIMARY KEY,
    account_id       uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    display_name     bytea NOT NULL,
    age              smallint CHECK (age BETWEEN 3 AND 120),
    avatar_id        text NOT NULL,
    native_language  text NOT NULL CHECK (native_language IN ('en', 'fr', 'it', 'de', 'es')),
    target_languages text[] NOT NULL DEFAULT '{}',
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX learners_account ON learners (account_id, created_at);

CREATE TABLE learner_pictures (
    learner_id uuid PRIMARY KEY REFERENCES learners (id) ON DELETE CASCADE,
    media_type text NOT NULL CHECK (media_type IN ('image/png', 'image/jpeg')),
    width      integer NOT NULL,
    height     integer NOT NULL,
    content    bytea NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
