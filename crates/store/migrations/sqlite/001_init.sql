-- Players, their secret codes, cumulative scores per game, and rooms.
CREATE TABLE players (
    id          TEXT PRIMARY KEY,          -- 20 chars of [a-z0-9]
    name        TEXT NOT NULL,
    code        TEXT NOT NULL,             -- decimal digits
    created_at  INTEGER NOT NULL           -- unix seconds
);
CREATE UNIQUE INDEX players_name ON players(name);

CREATE TABLE scores (
    player_id   TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    game        TEXT NOT NULL,
    score       INTEGER NOT NULL DEFAULT 0,
    deaths      INTEGER NOT NULL DEFAULT 0,
    kills       INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (player_id, game)
);

CREATE TABLE rooms (
    name        TEXT PRIMARY KEY,
    game        TEXT NOT NULL,
    tick_ms     INTEGER NOT NULL,
    paused      INTEGER NOT NULL DEFAULT 0,
    seed        INTEGER NOT NULL
);
