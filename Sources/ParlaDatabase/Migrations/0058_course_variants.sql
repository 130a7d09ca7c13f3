-- A course is in one variant of its language (issue 35: en-GB, en-phonics,
-- ...: an alphabet of the content); null is the language's default variant.
-- Its words' spellings and voices, its alphabet and its spelling follow it.
ALTER TABLE courses ADD COLUMN variant text;
