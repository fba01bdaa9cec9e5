-- PostgreSQL's 0006: ids are 64-bit.
CREATE TABLE table_messages (
    message_id BIGINT PRIMARY KEY,
    match_id   BIGINT NOT NULL,
    channel_id BIGINT NOT NULL
);
