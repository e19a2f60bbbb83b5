-- Rooms the server opened for arriving players (not named in the
-- configuration or by an admin): they are closed again, and deleted, once
-- no player has sat in them for a while. The flag is 1 for such a room.
ALTER TABLE rooms ADD COLUMN for_arrivals INTEGER NOT NULL DEFAULT 0;
