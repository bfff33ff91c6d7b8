-- umpire save, schema 7: checkpoints of the changing state only.
-- A `checkpoint` event no longer carries the whole campaign: its state (the game
-- move, the random stream's place, HQs, forces, battles, knowledge; never the map,
-- which does not change) is kept here, deflated JSON, as the change from the
-- checkpoint below it on the undo stack, with a whole snapshot every few
-- checkpoints (store::checkpoints). Checkpoints written before this schema keep
-- their whole state in their event and are read from there.

CREATE TABLE checkpoints (
    turn      INTEGER NOT NULL,                  -- the checkpoint event's game move
    seq       INTEGER NOT NULL,                  -- and place in it
    base_turn INTEGER,                           -- NULL: `state` is a whole snapshot;
    base_seq  INTEGER,                           -- else the change from this event's state
    depth     INTEGER NOT NULL CHECK (depth >= 0), -- changes since the last whole snapshot
    state     BLOB NOT NULL,                     -- deflated JSON
    PRIMARY KEY (turn, seq),
    FOREIGN KEY (turn, seq) REFERENCES events (turn, seq),
    CHECK ((base_turn IS NULL) = (base_seq IS NULL))
);

CREATE TRIGGER checkpoints_are_never_changed BEFORE UPDATE ON checkpoints
BEGIN
    SELECT RAISE(ABORT, 'checkpoints are append-only: they are never changed');
END;

CREATE TRIGGER checkpoints_are_never_deleted BEFORE DELETE ON checkpoints
BEGIN
    SELECT RAISE(ABORT, 'checkpoints are append-only: they are never deleted');
END;

-- Battles whose record (the pack handed off, the odds) was written since the last
-- checkpoint: the next checkpoint carries their record, as a whole state would.
CREATE TABLE battle_records_changed (
    battle INTEGER PRIMARY KEY
);
INSERT INTO battle_records_changed SELECT id FROM battles WHERE record <> '{}';
