-- umpire save, schema 15: the hot seat's passphrases.
-- The passphrase the umpire set for a side's view, or for the umpire's own view, kept
-- only as an Argon2id PHC string (algorithm, parameters, random salt and hash), never
-- in plain text. A view without a row here opens without one. Not part of the
-- campaign's state: undo and the checkpoints leave them as they are.

CREATE TABLE seat_passphrases (
    seat TEXT PRIMARY KEY NOT NULL,                         -- a side's id; '' for the umpire
    phc  TEXT NOT NULL CHECK (phc LIKE '$argon2%')          -- the PHC string
);
