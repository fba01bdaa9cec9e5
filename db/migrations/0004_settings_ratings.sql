-- Server settings, members' preferences and skill ratings; matches of the
-- classic variant and practice matches. After this SQL, a Python step
-- (db/replay.py) replays every finished match into ratings, in match order.

-- matches is rebuilt (SQLite cannot change a CHECK in place) to accept the
-- classic variant and to mark practice matches (against the computer: kept,
-- but counted in no board and no rating). The migration runs with foreign keys
-- off, so dropping the old table deletes no child row; legacy_alter_table keeps
-- the rename from re-parsing the triggers that name matches (it is missing
-- between the DROP and the RENAME).
PRAGMA legacy_alter_table = ON;

CREATE TABLE matches_new (
    match_id      INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    variant       TEXT    NOT NULL CHECK (variant IN ('duo', 'pizza', 'classic')),
    options       TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
    seed          INTEGER NOT NULL,
    status        TEXT    NOT NULL DEFAULT 'running'
                          CHECK (status IN ('running', 'finished', 'abandoned')),
    started_at    INTEGER NOT NULL,
    ended_at      INTEGER,
    message_id    INTEGER,
    turn_deadline INTEGER,
    practice      INTEGER NOT NULL DEFAULT 0 CHECK (practice IN (0, 1)),
    CHECK ((status = 'running') = (ended_at IS NULL))
);

INSERT INTO matches_new (match_id, guild_id, channel_id, variant, options, seed, status,
                         started_at, ended_at, message_id, turn_deadline)
SELECT match_id, guild_id, channel_id, variant, options, seed, status,
       started_at, ended_at, message_id, turn_deadline
FROM matches;

DROP TABLE matches;
ALTER TABLE matches_new RENAME TO matches;
PRAGMA legacy_alter_table = OFF;

CREATE INDEX matches_running ON matches (match_id) WHERE status = 'running';
CREATE INDEX matches_board ON matches (guild_id, variant, status, ended_at);

-- One row per setting a server changed; a missing row means the default, which
-- lives in the code (GuildSettings), so a changed default reaches every server
-- that never chose. A row per field: two admins changing different settings at
-- once never overwrite each other.
CREATE TABLE guild_settings (
    guild_id   INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    value      TEXT    NOT NULL CHECK (json_valid(value)),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (guild_id, name)
) WITHOUT ROWID;

-- A member's preferences hold in every server: no guild_id.
CREATE TABLE member_prefs (
    user_id    INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    value      TEXT    NOT NULL CHECK (json_valid(value)),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, name)
) WITHOUT ROWID;

-- A member's current OpenSkill rating in one server and variant.
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    variant    TEXT    NOT NULL CHECK (variant IN ('duo', 'pizza', 'classic')),
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL CHECK (sigma > 0),
    matches    INTEGER NOT NULL CHECK (matches >= 1),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (guild_id, variant, user_id)
) WITHOUT ROWID;

-- Every change of a rating, in the order applied (change_id): what /uno stats
-- charts. guild_id and variant repeat the match's so a member's history is one
-- index range.
CREATE TABLE rating_changes (
    change_id    INTEGER PRIMARY KEY,
    match_id     INTEGER NOT NULL REFERENCES matches (match_id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL,
    guild_id     INTEGER NOT NULL,
    variant      TEXT    NOT NULL,
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    UNIQUE (match_id, user_id),
    FOREIGN KEY (match_id, user_id) REFERENCES match_players (match_id, user_id)
        ON UPDATE CASCADE
);

CREATE INDEX rating_changes_member ON rating_changes (user_id, guild_id, variant, change_id);

-- A match's rating changes are written by ONE statement, an INSERT into this
-- view whose rows come from json_each(?) (as action_intake, 0003): one trip to
-- SQLite's thread instead of one per table written, inside the transaction
-- that records the match's results, which a player is waiting on.
CREATE VIEW rating_intake AS
SELECT match_id, user_id, guild_id, variant, mu_before, sigma_before, mu_after, sigma_after,
       0 AS matches, 0 AS updated_at
FROM rating_changes WHERE 0;

CREATE TRIGGER rating_intake_insert INSTEAD OF INSERT ON rating_intake
BEGIN
    INSERT INTO ratings (guild_id, variant, user_id, mu, sigma, matches, updated_at)
    VALUES (NEW.guild_id, NEW.variant, NEW.user_id, NEW.mu_after, NEW.sigma_after,
            NEW.matches, NEW.updated_at)
    ON CONFLICT (guild_id, variant, user_id) DO UPDATE
        SET mu = excluded.mu, sigma = excluded.sigma, matches = excluded.matches,
            updated_at = excluded.updated_at;
    INSERT INTO rating_changes (match_id, user_id, guild_id, variant, mu_before,
                                sigma_before, mu_after, sigma_after)
    VALUES (NEW.match_id, NEW.user_id, NEW.guild_id, NEW.variant, NEW.mu_before,
            NEW.sigma_before, NEW.mu_after, NEW.sigma_after);
END;
