-- Which asset fills each slot of the content (a concept's picture, a word
-- spoken in French, a phrase spoken in German...): one row per slot, named
-- as `AssetSlot` describes, replaced with every import. The asset's bytes
-- live in the asset store under that name (a content hash), not here.
CREATE TABLE content_assets (
    slot   text PRIMARY KEY,
    asset  text NOT NULL CHECK (asset ~ '^[0-9a-f]{32}\.(opus|svg)$')
);

-- Audio is now found through content_assets.
ALTER TABLE concept_localizations DROP COLUMN word_audio, DROP COLUMN definition_audio;
ALTER TABLE phrase_texts DROP COLUMN audio;
