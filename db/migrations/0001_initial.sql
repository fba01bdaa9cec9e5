-- Matches, their players, rounds and results; the crash-safe action log and
-- snapshots. Times are Unix epoch milliseconds (UTC); IDs are Discord
-- snowflakes (int64 fits SQLite INTEGER). Engine data is opaque JSON text.

CREATE TABLE matches (
    match_id      INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    variant       TEXT    NOT NULL CHECK (variant IN ('duo', 'pizza')),
    options       TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
    seed          INTEGER NOT NULL,
    status        TEXT    NOT NULL DEFAULT 'running'
                          CHECK (status IN ('running', 'finished', 'abandoned')),
    started_at    INTEGER NOT NULL,
    ended_at      INTEGER,
    -- What the bot needs to bring a running table back after a restart.
    message_id    INTEGER,
    turn_deadline INTEGER,
    CHECK ((status = 'running') = (ended_at IS NULL))
);

-- Startup scans only running tables; a partial index keeps that cheap forever.
CREATE INDEX matches_running ON matches (match_id) WHERE status = 'running';
-- Scoreboards read one guild's finished matches of one variant.
CREATE INDEX matches_board ON matches (guild_id, variant, status, ended_at);

CREATE TABLE match_players (
    match_id     INTEGER NOT NULL REFERENCES matches (match_id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    user_id      INTEGER NOT NULL,
    display_name TEXT    NOT NULL,
    PRIMARY KEY (match_id, seat),
    UNIQUE (match_id, user_id)
) WITHOUT ROWID;

CREATE INDEX match_players_user ON match_players (user_id);

-- Rows below reference (match_id, user_id) with ON UPDATE CASCADE, so that
-- forgetting a member (rewriting match_players.user_id) reaches every row.
CREATE TABLE rounds (
    match_id  INTEGER NOT NULL REFERENCES matches (match_id) ON DELETE CASCADE,
    round_no  INTEGER NOT NULL CHECK (round_no >= 1),
    winner_id INTEGER NOT NULL,
    ended_at  INTEGER NOT NULL,
    PRIMARY KEY (match_id, round_no),
    FOREIGN KEY (match_id, winner_id) REFERENCES match_players (match_id, user_id)
        ON UPDATE CASCADE
) WITHOUT ROWID;

CREATE TABLE round_scores (
    match_id INTEGER NOT NULL,
    round_no INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    points   INTEGER NOT NULL CHECK (points >= 0),
    PRIMARY KEY (match_id, round_no, user_id),
    FOREIGN KEY (match_id, round_no) REFERENCES rounds (match_id, round_no) ON DELETE CASCADE,
    FOREIGN KEY (match_id, user_id) REFERENCES match_players (match_id, user_id)
        ON UPDATE CASCADE
) WITHOUT ROWID;

CREATE TABLE results (
    match_id INTEGER NOT NULL REFERENCES matches (match_id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL,
    score    INTEGER NOT NULL CHECK (score >= 0),
    place    INTEGER NOT NULL CHECK (place >= 1),
    outcome  TEXT    NOT NULL CHECK (outcome IN ('won', 'lost', 'forfeit')),
    PRIMARY KEY (match_id, user_id),
    FOREIGN KEY (match_id, user_id) REFERENCES match_players (match_id, user_id)
        ON UPDATE CASCADE
) WITHOUT ROWID;

-- The action log: one row per accepted action, seq = 1, 2, 3, ... per match.
-- A rowid table on purpose: rows are appended in commit order, so a batch of
-- 200 tables' actions dirties a few pages, not one leaf page per match as a
-- table clustered on (match_id, seq) would (half the cost per commit).
CREATE TABLE actions (
    action_id  INTEGER PRIMARY KEY,
    match_id   INTEGER NOT NULL REFERENCES matches (match_id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    player_id  INTEGER,
    action     TEXT    NOT NULL CHECK (json_valid(action)),
    created_at INTEGER NOT NULL,
    UNIQUE (match_id, seq),
    FOREIGN KEY (match_id, player_id) REFERENCES match_players (match_id, user_id)
        ON UPDATE CASCADE
);

-- The database, not only the bot, guarantees a gap-free log of a running match:
-- a replay that silently skipped an action would rebuild a different table.
CREATE TRIGGER actions_in_order BEFORE INSERT ON actions
BEGIN
    SELECT RAISE(ABORT, 'match is not running')
    WHERE (SELECT status FROM matches WHERE match_id = NEW.match_id)
          IS NOT 'running';
    SELECT RAISE(ABORT, 'action seq out of order')
    WHERE NEW.seq <> (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions
                      WHERE match_id = NEW.match_id);
END;

-- Only the latest snapshot of each running match is kept: older ones are
-- never read (seed + action log replay a whole match), and a few KB per
-- snapshot would otherwise dominate the file.
CREATE TABLE snapshots (
    match_id   INTEGER PRIMARY KEY REFERENCES matches (match_id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    state      TEXT    NOT NULL CHECK (json_valid(state)),
    created_at INTEGER NOT NULL
);
