-- The seats' stderr log of a kept game (JSON lines, one per seat and tick
-- with output or a fault). It is the bots' owners' business: pages show a
-- seat's lines to that seat's player only.
ALTER TABLE replays ADD COLUMN stderr_log TEXT NOT NULL DEFAULT '';
-- A room's page lists its latest kept games.
CREATE INDEX replays_origin ON replays(origin, id);
