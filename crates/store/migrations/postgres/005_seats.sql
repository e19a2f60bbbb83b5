-- The room each player sits in, so that any node can send a player's bot
-- and pages to the node that runs that room.
CREATE TABLE seats (
    player_id   TEXT PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
    room        TEXT NOT NULL
);
