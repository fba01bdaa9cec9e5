-- One member's stats and recent matches look results up by user, not by match.
CREATE INDEX results_user ON results (user_id, match_id);
