-- How many times the scores of a game were reset (game '*': all games at
-- once). A room remembers the sum for its game, epoch(game) + epoch('*'),
-- and its deltas are written only while the sum is unchanged: points
-- earned before a reset, still pending in a room of any node, never land
-- after it.
CREATE TABLE score_epochs (
    game  TEXT PRIMARY KEY,
    epoch BIGINT NOT NULL DEFAULT 0
);
