-- A plan's daily limits count a learner's lessons and games since midnight
-- (EntitlementStore.usedToday): one index range each, however long the
-- learner's history. Scored recordings have theirs (speech_attempts_learner).
CREATE INDEX lessons_started ON lessons (learner_id, started_at);
CREATE INDEX games_started ON games (learner_id, started_at);
