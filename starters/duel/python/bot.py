"""KingOfBots Snake starter bot: a random safe mover.

Each round reads one line, `<map>#<row>#<col>#(<steps>)#<row>#<col>#(<steps>)`
(own snake first; the map is 13 rows of `0` grass and `1` wall), rebuilds
both snakes by replaying their steps, and answers 0 (up), 1 (right),
2 (down) or 3 (left). See ../README.md.
"""
import random
import sys

ROWS = 13
DR, DC = [-1, 0, 1, 0], [0, 1, 0, -1]


def body(r, c, steps):
    """The snake's cells, tail first: it grows on steps 1-10, then every 3rd."""
    cells = [(r, c)]
    for n, d in enumerate(steps[1:-1], start=1):
        r, c = r + DR[int(d)], c + DC[int(d)]
        cells.append((r, c))
        if not (n <= 10 or n % 3 == 1):
            cells.pop(0)
    return cells


for line in sys.stdin:
    parts = line.strip().split("#")
    grid, cols = parts[0], len(parts[0]) // ROWS
    blocked = {(i // cols, i % cols) for i, ch in enumerate(grid) if ch == "1"}
    me = body(int(parts[1]), int(parts[2]), parts[3])
    blocked |= set(me) | set(body(int(parts[4]), int(parts[5]), parts[6]))
    r, c = me[-1]
    safe = [d for d in range(4)
            if 0 <= r + DR[d] < ROWS and 0 <= c + DC[d] < cols and (r + DR[d], c + DC[d]) not in blocked]
    print(random.choice(safe) if safe else 0, flush=True)
