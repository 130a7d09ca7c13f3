-- Bug reports (issue 19, seed 004 BF3): what a reporter wrote (sealed like
-- any personal field), the app and device it came from, an optional
-- screenshot (sealed), and the status support gives it. `number` is the
-- reference the reporter quotes (PR-000042).
CREATE SEQUENCE support_report_numbers;
CREATE TABLE support_reports (
    id          uuid PRIMARY KEY,
    number      bigint NOT NULL UNIQUE DEFAULT nextval('support_report_numbers'),
    account_id  uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    learner_id  uuid REFERENCES learners (id) ON DELETE SET NULL,
    text        bytea NOT NULL,
    app_version text NOT NULL,
    platform    text NOT NULL CHECK (platform IN ('ios', 'android', 'web')),
    device      bytea NOT NULL,
    ui_language text NOT NULL CHECK (ui_language IN ('en', 'fr', 'it', 'de', 'es')),
    status      text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'in_progress', 'resolved', 'closed')),
    -- Support's note on the report, for support only.
    note        text,
    handled_by  uuid REFERENCES accounts (id) ON DELETE SET NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
ALTER SEQUENCE support_report_numbers OWNED BY support_reports.number;
CREATE INDEX support_reports_queue ON support_reports (status, created_at DESC, id);
CREATE INDEX support_reports_account ON support_reports (account_id, created_at DESC);

CREATE TABLE support_screenshots (
    report_id  uuid PRIMARY KEY REFERENCES support_reports (id) ON DELETE CASCADE,
    media_type text NOT NULL CHECK (media_type IN ('image/png', 'image/jpeg')),
    width      integer NOT NULL,
    height     integer NOT NULL,
    content    bytea NOT NULL,
    added_at   timestamptz NOT NULL DEFAULT now()
);
