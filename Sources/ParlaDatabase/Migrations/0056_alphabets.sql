-- Each language variant's alphabet (issue 35, seed 003): its letters in
-- order with what the narrator says for each, and its labels, one JSON
-- document as ParlaContent codes it. Replaced whole at every import.
CREATE TABLE content_alphabets (
    variant text PRIMARY KEY,
    body    jsonb NOT NULL
);

-- Flags come as PNG too (seed 003: flag.png, 115x79), beside their SVG.
ALTER TABLE content_assets DROP CONSTRAINT content_assets_asset_check;
ALTER TABLE content_assets ADD CONSTRAINT content_assets_asset_check CHECK (asset ~ '^[0-9a-f]{32}\.(opus|svg|json|png)$');
