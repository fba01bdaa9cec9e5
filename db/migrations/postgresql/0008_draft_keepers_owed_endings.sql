-- PostgreSQL's 0008: ids are 64-bit.
-- What a restart must not forget about a table, besides its action log.
--
-- "Keep the rest" in a Duo draft: the member's later picks of that round's draft are
-- kept for them as the table moves on. The row is written in the transaction of the
-- keep that the button pressed, and names the round, so a row of an earlier draft
-- says nothing about the current one (one row per member and match, replaced).
CREATE TABLE draft_keepers (
    match_id BIGINT NOT NULL REFERENCES matches (match_id) ON DELETE CASCADE,
    user_id  BIGINT  NOT NULL,
    round_no INTEGER NOT NULL CHECK (round_no >= 1),
    PRIMARY KEY (match_id, user_id),
    FOREIGN KEY (match_id, user_id) REFERENCES match_players (match_id, user_id)
        ON UPDATE CASCADE
);

-- Matches played to their end whose end the channel has not been shown yet (the
-- round and match summaries, the final table with its Rematch button). The row is
-- written in the transaction of the action that ended the match and goes once that
-- was shown: a restart in between shows it then.
CREATE TABLE endings_owed (
    match_id BIGINT PRIMARY KEY REFERENCES matches (match_id) ON DELETE CASCADE
);
