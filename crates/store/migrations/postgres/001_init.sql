-- Players, their secret codes, cumulative scores per game, and rooms
-- (the SQLite migration of the same name, in PostgreSQL's types).
CREATE TABLE players (
    id          TEXT PRIMARY KEY,          -- 20 chars of [a-z0-9]
    name        TEXT NOT NULL,
    code        TEXT NOT NULL,             -- decimal digits
    created_at  BIGINT NOT NULL            -- unix seconds
);
CREATE UNIQUE INDEX players_name ON players(name);

CREATE TABLE scores (
    player_id   TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    game        TEXT NOT NULL,
    score       BIGINT NOT NULL DEFAULT 0,
    deaths      BIGINT NOT NULL DEFAULT 0,
    kills       BIGINT NOT NULL DEFAULT 0,
    wins        BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (player_id, game)
);

CREATE TABLE rooms (
    name        TEXT PRIMARY KEY,
    game        TEXT NOT NULL,
    tick_ms     BIGINT NOT NULL,
    paused      BOOLEAN NOT NULL DEFAULT FALSE,
    seed        BIGINT NOT NULL
);
