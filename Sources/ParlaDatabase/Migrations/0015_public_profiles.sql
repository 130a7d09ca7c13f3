-- A learner's public profile (display name, avatar, levels, best results)
-- is seen by friends, and by anyone once the learner turns this on.
ALTER TABLE learners ADD COLUMN public_profile boolean NOT NULL DEFAULT false;
