-- Start without an account (issue 19, seed 001): a guest account belongs
-- to one device and has no name, email, password or terms until it is
-- claimed by signing up or by social sign-in, which keeps every learner
-- and all of its progress. Guests idle for a while are erased.
ALTER TABLE accounts
    ALTER COLUMN first_name DROP NOT NULL,
    ALTER COLUMN last_name DROP NOT NULL,
    ALTER COLUMN email DROP NOT NULL,
    ALTER COLUMN email_index DROP NOT NULL,
    ALTER COLUMN terms_version DROP NOT NULL,
    ALTER COLUMN terms_accepted_at DROP NOT NULL,
    ADD COLUMN guest boolean NOT NULL DEFAULT false,
    ADD CONSTRAINT accounts_person_or_guest CHECK (
        guest OR (first_name IS NOT NULL AND last_name IS NOT NULL AND email IS NOT NULL AND email_index IS NOT NULL
                  AND terms_version IS NOT NULL AND terms_accepted_at IS NOT NULL));
CREATE INDEX accounts_guests ON accounts (created_at) WHERE guest;
