-- How many courses stand at each level per language, kept in step with the
-- courses by a trigger: a level's percentile (DF 4.5) reads six rows at
-- most, where a count over the courses would scan a million of them.
CREATE TABLE course_level_counts (
    language text NOT NULL,
    level    text NOT NULL,
    learners integer NOT NULL CHECK (learners >= 0),
    PRIMARY KEY (language, level)
);

INSERT INTO course_level_counts (language, level, learners)
SELECT language, level, count(*) FROM courses WHERE level IS NOT NULL GROUP BY 1, 2;

-- A course leaves its old level and joins its new one in (language, level)
-- order, so that two courses moving at once never wait on each other in a
-- circle.
CREATE FUNCTION course_level_counts_follow() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    change record;
BEGIN
    FOR change IN
        SELECT c.language, c.level, sum(c.delta)::integer AS delta
        FROM (
            SELECT OLD.language, OLD.level, -1 WHERE TG_OP IN ('UPDATE', 'DELETE') AND OLD.level IS NOT NULL
            UNION ALL
            SELECT NEW.language, NEW.level, 1 WHERE TG_OP IN ('UPDATE', 'INSERT') AND NEW.level IS NOT NULL
        ) AS c (language, level, delta)
        GROUP BY 1, 2
        HAVING sum(c.delta) <> 0
        ORDER BY 1, 2
    LOOP
        IF change.delta > 0 THEN
            INSERT INTO course_level_counts AS counts (language, level, learners) VALUES (change.language, change.level, change.delta)
            ON CONFLICT (language, level) DO UPDATE SET learners = counts.learners + excluded.learners;
        ELSE
            UPDATE course_level_counts SET learners = learners + change.delta
            WHERE language = change.language AND level = change.level;
        END IF;
    END LOOP;
    RETURN NULL;
END
$$;

CREATE TRIGGER course_level_counts_follow AFTER INSERT OR DELETE OR UPDATE OF language, level ON courses
FOR EACH ROW EXECUTE FUNCTION course_level_counts_follow();
