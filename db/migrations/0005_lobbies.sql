-- Lobbies waiting for players. A lobby lives in the bot's memory; this row only
-- gives it an id that a restart never hands out again (AUTOINCREMENT) and
-- remembers its message, so that a restarted bot can take the buttons off a
-- lobby it no longer holds. The row goes when the lobby closes or starts.
CREATE TABLE lobbies (
    lobby_id   INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER,
    opened_at  INTEGER NOT NULL
);
