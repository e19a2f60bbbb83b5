-- (The PostgreSQL migration of the same name, in SQLite's types.)
-- What several nodes share beyond players and scores: finished games'
-- replays, ratings, the queue of games to play, and leases on rooms.
CREATE TABLE replays (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game        TEXT NOT NULL,
    origin      TEXT NOT NULL,             -- room name, ladder or tournament
    players     TEXT NOT NULL,             -- JSON array of player ids ("" for built-ins)
    result      TEXT NOT NULL,             -- JSON, the game's own summary
    body        TEXT NOT NULL,             -- the replay, JSON lines
    created_ms  INTEGER NOT NULL
);
CREATE TABLE replay_players (
    replay_id   INTEGER NOT NULL REFERENCES replays(id) ON DELETE CASCADE,
    player_id   TEXT NOT NULL,
    PRIMARY KEY (player_id, replay_id)
);

CREATE TABLE ratings (
    player_id   TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    game        TEXT NOT NULL,
    rating      REAL NOT NULL,
    uncertainty REAL NOT NULL,
    games       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (player_id, game)
);

-- state: queued, running (held by worker until lease_until_ms), done.
CREATE TABLE matches (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    game           TEXT NOT NULL,
    spec           TEXT NOT NULL,          -- JSON: seats, settings
    seed           INTEGER NOT NULL,
    state          TEXT NOT NULL DEFAULT 'queued',
    worker         TEXT,
    attempts       INTEGER NOT NULL DEFAULT 0,
    lease_until_ms INTEGER NOT NULL DEFAULT 0,
    result         TEXT,
    replay_id      INTEGER
);
CREATE INDEX matches_open ON matches(state, id) WHERE state <> 'done';

CREATE TABLE leases (
    resource    TEXT PRIMARY KEY,          -- e.g. room:NAME
    node        TEXT NOT NULL,
    until_ms    INTEGER NOT NULL
);

-- The nodes serving now, and the address at which the others reach them
-- (to send a player to the node that owns their room).
CREATE TABLE nodes (
    id          TEXT PRIMARY KEY,
    url         TEXT NOT NULL,
    until_ms    INTEGER NOT NULL
);
