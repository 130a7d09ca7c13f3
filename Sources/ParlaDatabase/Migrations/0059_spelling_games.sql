-- Spelling with letter tiles is a game as card matching is. A finished
-- game's result counts what each kind has: items (pairs matched, words
-- spelled), moves (flips, tile placements) and mistakes.
ALTER TABLE games DROP CONSTRAINT games_kind_check;
ALTER TABLE games ADD CONSTRAINT games_kind_check CHECK (kind IN ('matching', 'spelling'));
ALTER TABLE games DROP CONSTRAINT games_pairs_check;
ALTER TABLE games RENAME COLUMN pairs TO items;
ALTER TABLE games ADD CONSTRAINT games_items_check CHECK (items BETWEEN 1 AND 18);
ALTER TABLE games RENAME COLUMN flips TO moves;
ALTER TABLE games RENAME COLUMN mismatches TO mistakes;
