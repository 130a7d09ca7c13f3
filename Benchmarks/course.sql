-- Learners with progress in the course, for Benchmarks/course.sh (issue 34).
-- Variables: learners (how many learners have progress in all), measured
-- (the learners signed up through the API to take lessons under load, as
-- "learner-id:language,…"), heavy (the learner signed up through the API
-- whose pack list is measured), days (how far back the progress goes).
-- The learners that are neither are made here, in one family account, so
-- that `learners` learners have progress: the measured ones in their
-- language, the others in one language (a quarter in two); the heavy one in
-- every pack of every language. A learner's progress in a language: the
-- first lessons of its first packs in course order finished (a fifth of
-- them twice), now and then the next one left unfinished (expired), one
-- answer per screen of each, a memory card per word met and its abilities.
-- Names are those the API encrypted at sign-up, copied; the rest is drawn
-- at random, seeded so every run makes the same progress. The announcing
-- triggers are off while it is written: course.sh restarts the server after.
\set ON_ERROR_STOP on
SELECT setseed(0.34) \gset
BEGIN;
SELECT count(*) AS existing FROM learners \gset
ALTER TABLE learners DISABLE TRIGGER USER;
ALTER TABLE courses DISABLE TRIGGER USER;
ALTER TABLE lesson_answers DISABLE TRIGGER USER;
ALTER TABLE abilities DISABLE TRIGGER USER;

-- The course as imported: its lessons in course order per language, with their packs and screens.
CREATE TEMP TABLE course_packs_ordered AS
SELECT id AS pack, language, body,
       row_number() OVER (PARTITION BY language ORDER BY array_position(ARRAY['learnToRead', 'readAStory', 'discover', 'artSpace'], section),
                                                       position) AS n
FROM course_packs;
CREATE TEMP TABLE course_lesson_list AS
SELECT p.language, p.pack, p.n AS pack_n, (l ->> 'number')::int AS number, l ->> 'id' AS lesson,
       jsonb_array_length(l -> 'screens') AS screens, coalesce(p.body ->> 'wordList', 'home') AS area
FROM course_packs_ordered p CROSS JOIN jsonb_array_elements(p.body -> 'lessons') l;
-- Every word a language's word lists teach, in a random order each.
CREATE TEMP TABLE course_words AS
SELECT language, 'word:' || concept_key AS item, row_number() OVER (PARTITION BY language ORDER BY random()) AS n
FROM (SELECT DISTINCT c.language, w.concept_key FROM word_list_words w JOIN concept_localizations c USING (concept_key)) words;
CREATE TEMP TABLE course_word_counts AS SELECT language, count(*)::int AS words FROM course_words GROUP BY language;

-- The learners made here, in one family account (no request reads it).
INSERT INTO accounts (id, first_name, last_name, email, email_index, password_hash, ui_language, terms_version, terms_accepted_at)
SELECT 'c0075e00-0000-4000-8000-000000000034', first_name, last_name, email, decode(md5('course-benchmark'), 'hex'), '!', 'en',
       terms_version, now()
FROM accounts ORDER BY created_at LIMIT 1;
CREATE TEMP TABLE course_made AS
SELECT gen_random_uuid() AS id, (ARRAY['en', 'fr', 'it', 'de', 'es'])[1 + floor(random() * 5)::int] AS language, random() < 0.25 AS second
FROM generate_series(1, :learners - :existing) n;
INSERT INTO learners (id, account_id, display_name, avatar_id, native_language, target_languages)
SELECT m.id, 'c0075e00-0000-4000-8000-000000000034', (SELECT display_name FROM learners ORDER BY created_at LIMIT 1), 'cap-explorer',
       CASE WHEN m.language = 'en' THEN 'fr' ELSE 'en' END, ARRAY[m.language]
FROM course_made m;

-- Who learns what: the learners made here, the measured ones, and the heavy one in every language.
CREATE TEMP TABLE course_learning AS
SELECT id AS learner_id, language, false AS heavy FROM course_made
UNION ALL
SELECT id, (ARRAY['en', 'fr', 'it', 'de', 'es'])[1 + array_position(ARRAY['en', 'fr', 'it', 'de', 'es'], language) % 5], false
FROM course_made WHERE second
UNION ALL
SELECT split_part(m, ':', 1)::uuid, split_part(m, ':', 2), false FROM unnest(string_to_array(:'measured', ',')) m
UNION ALL
SELECT :'heavy'::uuid, language, true FROM unnest(ARRAY['en', 'fr', 'it', 'de', 'es']) language;
INSERT INTO courses (learner_id, language, start, level, created_at)
SELECT learner_id, language, 'beginning', CASE WHEN random() < 0.7 THEN 'A1' ELSE 'A2' END, now() - :days * interval '1 day'
FROM course_learning
ON CONFLICT DO NOTHING;

-- The packs each took, and how many of each pack's lessons (the heavy learner: all but the last, in every pack of the language).
CREATE TEMP TABLE course_taken AS
SELECT c.learner_id, c.language, p.pack, CASE WHEN c.heavy THEN 5 ELSE 1 + floor(random() * 6)::int END AS lessons,
       random() < 0.1 AND NOT c.heavy AS left_one
FROM (SELECT l.*, CASE WHEN heavy THEN n.packs ELSE 1 + floor(random() * n.packs)::int END AS packs
      FROM course_learning l JOIN (SELECT language, count(*)::int AS packs FROM course_packs_ordered GROUP BY language) n USING (language)) c
JOIN course_packs_ordered p ON p.language = c.language AND p.n <= c.packs;
CREATE TEMP TABLE course_lessons_made AS
SELECT gen_random_uuid() AS id, t.learner_id, t.language, l.lesson, l.screens, l.area, l.number > t.lessons AS unfinished,
       now() - :days * interval '1 day' * random() AS started_at
FROM course_taken t
JOIN course_lesson_list l ON l.pack = t.pack AND (l.number <= t.lessons OR (t.left_one AND l.number = t.lessons + 1))
CROSS JOIN generate_series(1, 2) k
WHERE k = 1 OR (l.number <= t.lessons AND random() < CASE WHEN t.learner_id = :'heavy'::uuid THEN 0.25 ELSE 0.2 END);
INSERT INTO lessons (id, learner_id, language, state, started_at, touched_at, finished_at, expired_at, course_lesson)
SELECT id, learner_id, language, '{}', started_at, started_at + interval '6 minutes',
       CASE WHEN unfinished THEN NULL ELSE started_at + interval '6 minutes' END,
       CASE WHEN unfinished THEN started_at + interval '1 day' END, lesson
FROM course_lessons_made;

-- One answer per screen of each lesson finished, about a word of the language.
INSERT INTO lesson_answers (lesson_id, question_id, learner_id, language, item_id, question_type, skill, area_kind, area_id, level, correct,
                            tries, response_ms, answered_at)
SELECT a.id, 'q' || a.s, a.learner_id, a.language, w.item, (ARRAY['picture', 'translationFromTarget', 'listening', 'gapFill', 'dragMatching',
       'sightWords', 'sequencing', 'reading'])[1 + a.s % 8], (ARRAY['vocabulary', 'vocabulary', 'listening', 'grammar', 'vocabulary',
       'reading', 'vocabulary', 'reading'])[1 + a.s % 8], 'topic', a.area, 'A1', random() < 0.8, 1 + (random() < 0.2)::int,
       1500 + (random() * 4000)::int, a.started_at + a.s * interval '30 seconds'
FROM (SELECT l.*, s, 1 + floor(random() * c.words)::int AS pick
      FROM course_lessons_made l JOIN course_word_counts c USING (language) CROSS JOIN LATERAL generate_series(1, l.screens) s
      WHERE NOT l.unfinished) a
JOIN course_words w ON w.language = a.language AND w.n = a.pick;

-- A memory card per word met (about six a lesson), and the abilities.
INSERT INTO memory_cards (learner_id, language, item_id, phase, step, stability, difficulty, due, last_review, reviews, lapses)
SELECT c.learner_id, c.language, w.item, 2, NULL, 1 + random() * 60, 1 + random() * 9, now() + (random() * 40 - 10) * interval '1 day',
       now() - random() * :days * interval '1 day', 1 + floor(random() * 8)::int, floor(random() * 2)::int
FROM (SELECT learner_id, language, count(*) * 6 + floor(random() * 40)::int AS cards FROM course_lessons_made GROUP BY learner_id, language) c
JOIN course_words w ON w.language = c.language AND w.n <= c.cards;
INSERT INTO abilities (learner_id, language, skill, theta, responses)
SELECT c.learner_id, c.language, skill, random() * 2 - 2, 20 + floor(random() * 300)::int
FROM course_learning c CROSS JOIN unnest(ARRAY['vocabulary', 'grammar', 'listening', 'reading', 'speaking']) skill
ON CONFLICT DO NOTHING;

ALTER TABLE learners ENABLE TRIGGER USER;
ALTER TABLE courses ENABLE TRIGGER USER;
ALTER TABLE lesson_answers ENABLE TRIGGER USER;
ALTER TABLE abilities ENABLE TRIGGER USER;
COMMIT;
ANALYZE;
