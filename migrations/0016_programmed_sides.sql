-- umpire save, schema 16: the sides the program plays.
-- A side listed here has its orders given by the programmed commander (`ai`) from its own
-- report when the game move is resolved (`umpire turn`, the window's End turn), unless
-- orders were given for it already. Not part of the campaign's state: undo and the
-- checkpoints leave it as it is.

CREATE TABLE programmed_sides (
    side TEXT PRIMARY KEY NOT NULL
);
