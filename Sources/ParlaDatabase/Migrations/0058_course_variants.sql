-- A course is in one variant of its language (issue 35: en-GB, en-phonics,
-- ...: an alphabet of the content); null is the language's default variant.
-- Its spelling games spell and say words as it does.
ALTER TABLE courses ADD COLUMN variant text;
