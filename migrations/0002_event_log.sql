-- umpire save, schema 2: the append-only log of everything that happens.

CREATE TABLE events (
    turn     INTEGER NOT NULL,
    seq      INTEGER NOT NULL,                          -- order within the turn, from 0
    kind     TEXT NOT NULL,                             -- machine name, e.g. campaign_created
    payload  TEXT NOT NULL CHECK (json_valid(payload)), -- the event's data as JSON
    sentence TEXT NOT NULL,                             -- the event told for people
    PRIMARY KEY (turn, seq)
);

CREATE TRIGGER events_are_never_changed BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'the event log is append-only: events are never changed');
END;

CREATE TRIGGER events_are_never_deleted BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'the event log is append-only: events are never deleted');
END;

-- A save made before the log existed starts its log now.
INSERT INTO events (turn, seq, kind, payload, sentence)
SELECT turn, 0, 'log_started',
       json_object('reason', 'save upgraded from schema 1'),
       'The turn log starts here: this save was made by an umpire that kept no log.'
FROM campaign;
