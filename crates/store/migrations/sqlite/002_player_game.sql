-- Each player registers for one game, as on Codenjoy; existing players
-- played SnakeBattle.
ALTER TABLE players ADD COLUMN game TEXT NOT NULL DEFAULT 'snakebattle';
