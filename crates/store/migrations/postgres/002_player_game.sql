-- Each player registers for one game; earlier players played SnakeBattle.
ALTER TABLE players ADD COLUMN game TEXT NOT NULL DEFAULT 'snakebattle';
