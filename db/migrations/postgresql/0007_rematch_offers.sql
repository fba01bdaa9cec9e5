-- PostgreSQL's 0007: ids are 64-bit.
CREATE TABLE rematch_offers (
    table_id      BIGINT PRIMARY KEY,
    guild_id      BIGINT NOT NULL,
    channel_id    BIGINT NOT NULL,
    host_id       BIGINT NOT NULL,
    variant       TEXT   NOT NULL,
    options_json  TEXT   NOT NULL,
    seats_json    TEXT   NOT NULL,
    accepted_json TEXT   NOT NULL DEFAULT '[]',
    offered_at    BIGINT NOT NULL
);
