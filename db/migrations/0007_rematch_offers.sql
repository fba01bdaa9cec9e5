-- Rematch offers of matches played to the end: who sat down, with which options,
-- and who has pressed Rematch so far. The offer outlives a restart of the bot, so
-- the finished table's button keeps working; it goes once the rematch starts, and
-- only the newest offers are kept (older buttons say the offer expired).
CREATE TABLE rematch_offers (
    table_id      INTEGER PRIMARY KEY,  -- the finished match's id
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    host_id       INTEGER NOT NULL,
    variant       TEXT    NOT NULL,
    options_json  TEXT    NOT NULL,     -- the table's options, as stored with a match
    seats_json    TEXT    NOT NULL,     -- [[user_id, display name], ...] in seat order
    accepted_json TEXT    NOT NULL DEFAULT '[]',  -- user ids who pressed Rematch
    offered_at    INTEGER NOT NULL
);
