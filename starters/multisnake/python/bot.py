"""SOI Multisnake starter bot: a random safe mover.

Reads the header `W H N M T` once, then H lines of W characters each turn,
and answers one of `^ > v <`. The map wraps at its edges. See ../README.md.
"""
import random
import sys

MOVES = [("^", 0, -1), (">", 1, 0), ("v", 0, 1), ("<", -1, 0)]


def main():
    w, h, _n, m, _t = map(int, sys.stdin.readline().split())
    me = chr(64 + m)  # our head letter: 'A' for player 1
    while True:
        rows = [sys.stdin.readline().rstrip("\n") for _ in range(h)]
        if not rows[-1]:
            return  # no more maps: the game is over for us
        y = next(i for i, r in enumerate(rows) if me in r)
        x = rows[y].index(me)
        # Free tiles and signs are safe; everything else blocks.
        safe = [a for a, dx, dy in MOVES if rows[(y + dy) % h][(x + dx) % w] in ".+-"]
        print(random.choice(safe) if safe else "^", flush=True)


main()
