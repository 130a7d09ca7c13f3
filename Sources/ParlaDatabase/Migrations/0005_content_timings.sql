-- Word timings of definitions (read-along highlighting) are assets too:
-- JSON named by a hash of how they were made.
ALTER TABLE content_assets DROP CONSTRAINT content_assets_asset_check;
ALTER TABLE content_assets ADD CONSTRAINT content_assets_asset_check CHECK (asset ~ '^[0-9a-f]{32}\.(opus|svg|json)$');
