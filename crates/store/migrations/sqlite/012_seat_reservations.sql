-- Until when (Unix time, ms) the organiser keeps a player's seat in their
-- room for them, so that the reservation outlasts a restart; NULL: none.
ALTER TABLE seats ADD COLUMN reserved_until_ms INTEGER;
