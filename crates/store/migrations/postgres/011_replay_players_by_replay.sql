-- The players of one replay: pruning a player's games asks, per game,
-- who else sat in it, and deleting a replay cascades to its rows here.
-- The primary key starts with the player, so both needed a whole scan.
CREATE INDEX replay_players_replay ON replay_players(replay_id);
