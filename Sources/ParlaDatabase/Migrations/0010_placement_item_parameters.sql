-- Item parameters re-estimated from stored answers by `parla placement
-- calibrate` (EM); an item without a row keeps the ones its written level
-- gives. Kept across content imports: the items' ids stay.
CREATE TABLE placement_item_parameters (
    language       text NOT NULL,
    item_id        text NOT NULL,
    discrimination double precision NOT NULL CHECK (discrimination > 0),
    difficulty     double precision NOT NULL,
    responses      integer NOT NULL,
    calibrated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (language, item_id)
);
