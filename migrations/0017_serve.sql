-- umpire save, schema 17: what `umpire serve` keeps beside the campaign.
-- None of it is the campaign's state: undo and the checkpoints leave it as it is.

-- The access tokens of the server's links, kept only as the SHA-256 hash of the token
-- (never the token). `seat` is a side's id, or '' for the umpire. Revoking deletes the rows.
CREATE TABLE serve_tokens (
    hash BLOB PRIMARY KEY NOT NULL CHECK (length(hash) = 32),
    seat TEXT NOT NULL
);

-- Each order upload's idempotency key with the answer it got: a retry with the same key
-- gets that answer again and changes nothing. Written in the transaction of the orders.
CREATE TABLE serve_requests (
    seat TEXT NOT NULL,
    key TEXT NOT NULL,
    body_hash BLOB NOT NULL,     -- SHA-256 of the request body: the key names one request
    answer TEXT NOT NULL,        -- the JSON answered
    PRIMARY KEY (seat, key)
);

-- The campaign's server settings: one row.
CREATE TABLE serve_settings (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    auto_resolve INTEGER NOT NULL DEFAULT 0 CHECK (auto_resolve IN (0, 1)), -- resolve when every side has given orders
    deadline INTEGER                                          -- Unix seconds; NULL: none
);

-- Reminders (`umpire serve remind`): the club's webhook, called when a game move is
-- resolved and `remind_minutes` before the deadline. One row; none: no reminders.
CREATE TABLE serve_reminders (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    webhook TEXT NOT NULL,                                          -- an http:// or https:// address
    remind_minutes INTEGER NOT NULL DEFAULT 60 CHECK (remind_minutes >= 0),
    announced_turn INTEGER NOT NULL,   -- the game move whose orders were last announced open
    reminded_turn INTEGER              -- the game move whose deadline reminder was sent
);

-- A served upload replaces the side's earlier orders for the game move: they are kept,
-- marked with the upload that replaced them, so undoing that upload brings them back.
ALTER TABLE orders ADD COLUMN replaced_by INTEGER;
