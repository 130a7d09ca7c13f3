-- Analytics (issue 19; seeds 000 and 002): the events apps report, kept
-- raw for a while, and their daily roll-ups.
--
-- Design note: a roll-up must count every event once, though inserts
-- commit out of order. Each event carries the id of the transaction that
-- wrote it (`writer`); the roll-up remembers `counted_below`, an id below
-- which every writer had finished when it last ran. A run takes the
-- oldest writer still running now (`pg_snapshot_xmin`), counts the events
-- written between the two, and moves the mark: a writer below the new
-- mark has committed (its rows are seen) or aborted (they never will be).
CREATE TABLE analytics_events (
    learner_id  uuid NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    -- The app's id for the event: a batch sent again counts once.
    event_id    uuid NOT NULL,
    kind        text NOT NULL,
    -- The app's clock, never ahead of the server's.
    occurred_at timestamptz NOT NULL,
    -- The learner's own calendar day then (its clock's offset from UTC).
    local_day   date NOT NULL,
    language    text,
    list_id     text,
    item_kind   text,
    item_id     text,
    screen      text,
    duration_ms integer,
    received_at timestamptz NOT NULL DEFAULT now(),
    writer      xid8 NOT NULL DEFAULT pg_current_xact_id(),
    PRIMARY KEY (learner_id, event_id)
);
CREATE INDEX analytics_events_writer ON analytics_events (writer);
CREATE INDEX analytics_events_received ON analytics_events (received_at);

CREATE TABLE analytics_rollup (
    only_row      boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    counted_below xid8 NOT NULL,
    ran_at        timestamptz NOT NULL DEFAULT now()
);
INSERT INTO analytics_rollup (counted_below) VALUES (pg_snapshot_xmin(pg_current_snapshot()));

-- Touches of words and phrases per UTC day, language and list ('' when
-- the event named none), and kind of touch: what is touched most.
CREATE TABLE analytics_daily_items (
    day       date NOT NULL,
    language  text NOT NULL,
    list_id   text NOT NULL,
    item_kind text NOT NULL,
    item_id   text NOT NULL,
    kind      text NOT NULL,
    touches   bigint NOT NULL,
    PRIMARY KEY (day, language, list_id, item_kind, item_id, kind)
);

-- Each learner's own days: time in the app (its screens' durations),
-- events, lessons and games finished, and whether it learned that day.
CREATE TABLE analytics_learner_days (
    learner_id uuid NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    day        date NOT NULL,
    screen_ms  bigint NOT NULL,
    events     bigint NOT NULL,
    lessons    bigint NOT NULL,
    games      bigint NOT NULL,
    learning   boolean NOT NULL,
    PRIMARY KEY (learner_id, day)
);
