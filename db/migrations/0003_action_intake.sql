-- The group-commit writer logs a whole batch of actions with ONE statement,
-- an INSERT into this view whose rows come from json_each(?). In autocommit
-- mode one statement is one transaction and one trip to aiosqlite's thread;
-- with executemany every row was a separate step, each releasing and retaking
-- the GIL, which a busy event loop delays by up to the 5 ms switch interval.
CREATE VIEW action_intake AS
SELECT match_id, seq, player_id, action, created_at,
       NULL AS deadline, NULL AS state
FROM actions WHERE 0;

CREATE TRIGGER action_intake_insert INSTEAD OF INSERT ON action_intake
BEGIN
    INSERT INTO actions (match_id, seq, player_id, action, created_at)
    VALUES (NEW.match_id, NEW.seq, NEW.player_id, NEW.action, NEW.created_at);
    INSERT INTO snapshots (match_id, seq, state, created_at)
    SELECT NEW.match_id, NEW.seq, NEW.state, NEW.created_at WHERE NEW.state IS NOT NULL
    ON CONFLICT (match_id) DO UPDATE
        SET seq = excluded.seq, state = excluded.state, created_at = excluded.created_at;
    UPDATE matches SET turn_deadline = NEW.deadline WHERE match_id = NEW.match_id;
END;
