-- The roles of the people running the service (issue 19): support answers
-- bug reports, an admin reads the service's reports. Given and taken back
-- with `parla role`; learners and teachers need none.
CREATE TABLE account_roles (
    account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    role       text NOT NULL CHECK (role IN ('support', 'admin')),
    granted_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, role)
);
