-- Each language variant's alphabet (issue 35, seed 003): its letters in
-- order with what the narrator says for each, and its labels, one JSON
-- document as ParlaContent codes it. Replaced whole at every import.
CREATE TABLE content_alphabets (
    variant text PRIMARY KEY,
    body    jsonb NOT NULL
);
