-- Programs uploaded in the browser, one per player: the latest saved wins.
CREATE TABLE code (
    player_id  TEXT PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
    lang       TEXT NOT NULL,
    name       TEXT NOT NULL,
    source     TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);
