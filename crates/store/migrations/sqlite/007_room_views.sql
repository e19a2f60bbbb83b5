-- Each room as the lobby shows it, written by the node that runs the room
-- at every cluster step, so that every node's lobby lists every room. A
-- view lapses with its node.
CREATE TABLE room_views (
    name        TEXT PRIMARY KEY,
    node        TEXT NOT NULL,
    summary     TEXT NOT NULL,             -- JSON, the room's lobby summary
    until_ms    INTEGER NOT NULL
);
