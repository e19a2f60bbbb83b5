"""The bot's brain: one command per board. Start modifying here.

The strategy is deliberately simple: among the moves that do not hit a
barrier (and, if possible, do not eat a stone), take the one that brings the
head closest to the nearest apple or gold. The snake never turns back on
itself: the server would ignore a 180-degree turn anyway.
"""

from board import Element, HEAD_DIRECTION

MOVES = {"UP": (0, -1), "DOWN": (0, 1), "LEFT": (-1, 0), "RIGHT": (1, 0)}


def distance(a, b):
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def reverse_of(board, head):
    """The command that would turn the snake back on itself, if known."""
    facing = HEAD_DIRECTION.get(board.get_at(*head))
    if facing is None:
        return None
    back = (-facing[0], -facing[1])
    return next(name for name, d in MOVES.items() if d == back)


def choose(board):
    """The command to send for this board."""
    head = board.my_head()
    if head is None:
        # Dead and not shown, or not seated yet: the answer does not matter,
        # but the server waits for one before it sends the next board.
        return "RIGHT"
    targets = board.apples() + board.gold()
    reverse = reverse_of(board, head)

    safe, risky = [], []
    for name, (dx, dy) in MOVES.items():
        x, y = head[0] + dx, head[1] + dy
        if name == reverse or board.is_barrier(x, y):
            continue
        (risky if board.get_at(x, y) == Element.STONE else safe).append((name, (x, y)))

    options = safe or risky
    if not options:
        # Every way is blocked: keep going and hope.
        facing = HEAD_DIRECTION.get(board.get_at(*head), (1, 0))
        return next(name for name, d in MOVES.items() if d == facing)
    if not targets:
        return options[0][0]
    return min(options, key=lambda o: min(distance(o[1], t) for t in targets))[0]
