-- Table messages that still carry buttons. A row is added when a table message
-- is posted and goes once the message shows the table closed (or is deleted).
-- At start-up, a row whose match no longer runs is a message a crash left with
-- live buttons: the bot takes them off.
CREATE TABLE table_messages (
    message_id INTEGER PRIMARY KEY,
    match_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL
);
