-- Friends: each learner has a friend code to give out (ten characters from
-- an alphabet without look-alikes); a request waits until the other side
-- accepts or declines; either side can remove an accepted friend.
CREATE FUNCTION parla_friend_code() RETURNS text LANGUAGE sql VOLATILE AS $$
    SELECT string_agg(substr('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 1 + floor(random() * 32)::int, 1), '')
    FROM generate_series(1, 10)
$$;
ALTER TABLE learners ADD COLUMN friend_code text NOT NULL DEFAULT parla_friend_code();
CREATE UNIQUE INDEX learners_friend_code ON learners (friend_code);

CREATE TABLE friendships (
    requester_id uuid NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    addressee_id uuid NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    status       text NOT NULL CHECK (status IN ('pending', 'accepted')),
    requested_at timestamptz NOT NULL DEFAULT now(),
    accepted_at  timestamptz,
    PRIMARY KEY (requester_id, addressee_id),
    CHECK (requester_id <> addressee_id)
);
-- One friendship per pair, whichever side asked.
CREATE UNIQUE INDEX friendships_pair ON friendships (LEAST(requester_id, addressee_id), GREATEST(requester_id, addressee_id));
CREATE INDEX friendships_addressee ON friendships (addressee_id, status);
