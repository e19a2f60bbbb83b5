"""CodeCarrots snakes starter bot: a random safe mover.

Each tick reads the board, exactly HEIGHT lines of WIDTH characters (`.`
empty, `o` apple, `#` any snake, `H` our head), and answers `left`,
`right`, `up` or `down`. The board has no header, so the size comes from
the command line (default 120 80). See ../README.md.
"""
import random
import sys

WIDTH, HEIGHT = (int(a) for a in (sys.argv[1:3] if len(sys.argv) > 2 else (120, 80)))
MOVES = [("up", 0, -1), ("right", 1, 0), ("down", 0, 1), ("left", -1, 0)]

while True:
    rows = [sys.stdin.readline().rstrip("\n") for _ in range(HEIGHT)]
    if not rows[-1]:
        break  # no more boards
    y = next(i for i, r in enumerate(rows) if "H" in r)
    x = rows[y].index("H")
    # Leaving the board kills, and so does any snake cell.
    safe = [m for m, dx, dy in MOVES
            if 0 <= x + dx < WIDTH and 0 <= y + dy < HEIGHT and rows[y + dy][x + dx] in ".o"]
    print(random.choice(safe) if safe else "up", flush=True)
