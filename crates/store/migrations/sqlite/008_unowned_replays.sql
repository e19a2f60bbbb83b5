-- Games in which no registered player took part (built-in bots only, as in
-- the demo rooms) are kept for a while only: a room keeps its latest few
-- hundred of them, and the older ones are deleted as new ones come. The
-- flag is 1 for such a game.
ALTER TABLE replays ADD COLUMN unowned INTEGER NOT NULL DEFAULT 0;
UPDATE replays SET unowned = 1 WHERE NOT EXISTS (SELECT 1 FROM replay_players l WHERE l.replay_id = replays.id);
CREATE INDEX replays_unowned ON replays(origin, id) WHERE unowned = 1;
