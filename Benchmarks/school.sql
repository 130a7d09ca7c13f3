-- The school's learners and their 90 days, for Benchmarks/school.sh: the
-- classes, teachers and assignments are made through the API first
-- (school_setup.py). Variables: learners, members (per class), days.
-- Names are those the API encrypted at sign-up, copied; the rest is drawn
-- at random, seeded so every run makes the same school.
\set ON_ERROR_STOP on
SELECT setseed(0.17);
BEGIN;
-- One family account holds the school's learners (the overview never reads it).
INSERT INTO accounts (id, first_name, last_name, email, email_index, password_hash, ui_language, terms_version, terms_accepted_at)
SELECT '5c4001a0-0000-4000-8000-000000000001', first_name, last_name, email, decode(md5('school-benchmark'), 'hex'), '!', 'fr',
       terms_version, now()
FROM accounts ORDER BY created_at LIMIT 1;
CREATE TEMP TABLE school_learners AS
SELECT n, gen_random_uuid() AS id, random() * 2 - 1.5 AS start, random() * 0.02 AS slope FROM generate_series(1, :learners) n;
INSERT INTO learners (id, account_id, display_name, avatar_id, native_language, target_languages)
SELECT s.id, '5c4001a0-0000-4000-8000-000000000001', (SELECT display_name FROM learners ORDER BY created_at LIMIT 1), 'cap-explorer', 'en',
       '{fr}'
FROM school_learners s;
-- Each class has `members` learners; with more seats than learners, some learners are in two classes.
CREATE TEMP TABLE school_classes AS SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM classes;
INSERT INTO class_members (class_id, learner_id, shares_recordings, joined_at)
SELECT c.id, s.id, false, now() - interval '95 days'
FROM school_classes c CROSS JOIN generate_series(1, :members) k
JOIN school_learners s ON s.n = ((c.n - 1) * :members + k - 1) % :learners + 1
ON CONFLICT DO NOTHING;

-- Their abilities in French, and each day's: overall and per skill.
ALTER TABLE abilities DISABLE TRIGGER USER;
ALTER TABLE ability_history DISABLE TRIGGER USER;
INSERT INTO abilities (learner_id, language, skill, theta, responses)
SELECT s.id, 'fr', skill, s.start + s.slope * :days + random() - 0.5, 20 + (random() * 400)::int
FROM school_learners s CROSS JOIN unnest(ARRAY['vocabulary', 'grammar', 'listening', 'reading', 'speaking']) skill;
INSERT INTO ability_history (learner_id, language, skill, day, theta, level)
SELECT s.id, 'fr', skill, current_date - d, t,
       CASE WHEN t < -1.0 THEN 'A1' WHEN t < 0.0 THEN 'A2' WHEN t < 1.0 THEN 'B1' WHEN t < 2.0 THEN 'B2' WHEN t < 3.0 THEN 'C1' ELSE 'C2' END
FROM school_learners s
CROSS JOIN unnest(ARRAY['overall', 'vocabulary', 'grammar', 'listening', 'reading', 'speaking']) skill
CROSS JOIN generate_series(0, :days - 1) d
CROSS JOIN LATERAL (SELECT s.start + s.slope * (:days - d) + (random() - 0.5) * 0.2 AS t) theta;
ALTER TABLE abilities ENABLE TRIGGER USER;
ALTER TABLE ability_history ENABLE TRIGGER USER;

-- A lesson of ten answers on three days out of five, about the classes'
-- assigned items as often as not, else other words.
CREATE TEMP TABLE school_items AS
SELECT row_number() OVER () AS n, item FROM (SELECT DISTINCT unnest(items) AS item FROM assignments) assigned;
INSERT INTO school_items (n, item) SELECT (SELECT count(*) FROM school_items) + k, 'word:other-' || k FROM generate_series(1, 200) k;
SELECT count(*) AS item_count FROM school_items \gset
CREATE TEMP TABLE school_lessons AS
SELECT gen_random_uuid() AS id, s.id AS learner_id, now() - d * interval '1 day' - random() * interval '10 hours' AS started_at
FROM school_learners s CROSS JOIN generate_series(0, :days - 1) d WHERE random() < 0.6;
INSERT INTO lessons (id, learner_id, language, state, started_at, touched_at, finished_at)
SELECT id, learner_id, 'fr', '{}', started_at, started_at + interval '5 minutes', started_at + interval '5 minutes' FROM school_lessons;
INSERT INTO lesson_answers (lesson_id, question_id, learner_id, language, item_id, question_type, skill, area_kind, area_id, level, correct,
                            tries, response_ms, answered_at)
SELECT l.id, 'q' || q, l.learner_id, 'fr', i.item, 'translationFromTarget', 'vocabulary', 'topic', 'home', 'A2', random() < 0.75,
       1, 1500 + (random() * 4000)::int, l.started_at + q * interval '25 seconds'
FROM (SELECT l.*, q, 1 + floor(random() * :item_count)::int AS pick FROM school_lessons l CROSS JOIN generate_series(1, 10) q) l
JOIN school_items i ON i.n = l.pick;
-- A game every third day or so.
INSERT INTO games (id, learner_id, language, kind, state, started_at, finished_at, items, score, seconds, moves, mistakes)
SELECT gen_random_uuid(), s.id, 'fr', 'matching', '{}', now() - d * interval '1 day', now() - d * interval '1 day' + interval '40 seconds',
       8, 600 + (random() * 150)::int, 40, 20, 2
FROM school_learners s CROSS JOIN generate_series(0, :days - 1) d WHERE random() < 0.3;
COMMIT;
ANALYZE;
SELECT (SELECT count(*) FROM classes) AS classes, (SELECT count(*) FROM class_members) AS seats,
       (SELECT count(*) FROM learners WHERE account_id = '5c4001a0-0000-4000-8000-000000000001') AS learners,
       (SELECT count(*) FROM lesson_answers) AS answers, (SELECT count(*) FROM ability_history) AS history_days;
