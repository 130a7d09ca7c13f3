-- "I can't speak now" (issue 32, item 10): speaking questions stay out of
-- the learner's lessons until then, in lessons started meanwhile too.
ALTER TABLE learners ADD COLUMN speaking_paused_until timestamptz;
