-- How a learner sees letters (seed 003's letter case option), unless a
-- word's own case override says otherwise.
ALTER TABLE learners ADD COLUMN letter_case text NOT NULL DEFAULT 'lower'
    CHECK (letter_case IN ('lower', 'upper', 'title'));
