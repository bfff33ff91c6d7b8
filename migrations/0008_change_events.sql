-- umpire save, schema 8: a change's events kept together.
-- The events a game move or a battle's result tells (all but the checkpoint event
-- that closes it) are kept in one row here, keyed by that checkpoint event, as
-- deflated JSON: {"kinds": [{"kind", "payload"}, ...], "sentences": [...]}, numbered
-- on from the checkpoint's `first_seq` (store::events). A game move of 2,000 marching
-- forces tells some 2,600 events, about 830 KB of JSON: a row an event kept all of it,
-- with an index entry each; one row for them all keeps about 110 KB. Events written
-- before this schema, and the log's bookkeeping (the campaign's start, orders given and
-- withdrawn, checkpoints, undos), stay one row each in `events`.

CREATE TABLE change_events (
    turn   INTEGER NOT NULL,                    -- the checkpoint event closing the change
    seq    INTEGER NOT NULL,                    -- and its place in its game move
    count  INTEGER NOT NULL CHECK (count > 0),  -- how many events are kept here
    events BLOB NOT NULL,                       -- deflated JSON
    PRIMARY KEY (turn, seq),
    FOREIGN KEY (turn, seq) REFERENCES events (turn, seq)
);

CREATE TRIGGER change_events_are_never_changed BEFORE UPDATE ON change_events
BEGIN
    SELECT RAISE(ABORT, 'the event log is append-only: events are never changed');
END;

CREATE TRIGGER change_events_are_never_deleted BEFORE DELETE ON change_events
BEGIN
    SELECT RAISE(ABORT, 'the event log is append-only: events are never deleted');
END;
