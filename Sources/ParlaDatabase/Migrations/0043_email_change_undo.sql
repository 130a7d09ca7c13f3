-- An email change tells the old address, with a link that puts it back
-- for 7 days (issue 32, item 11): the token keeps the old address, sealed
-- as the account's email is.
ALTER TABLE account_tokens DROP CONSTRAINT account_tokens_purpose_check;
ALTER TABLE account_tokens ADD CONSTRAINT account_tokens_purpose_check
    CHECK (purpose IN ('password_reset', 'email_verification', 'email_change_undo'));
ALTER TABLE account_tokens ADD COLUMN previous_email bytea;
ALTER TABLE account_tokens ADD CONSTRAINT account_tokens_undo_keeps_email
    CHECK ((purpose = 'email_change_undo') = (previous_email IS NOT NULL));
