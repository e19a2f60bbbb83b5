"""The SnakeBattle board: every glyph the server sends, and helpers to ask
the board questions.

Coordinates: x grows to the right, y grows downwards, and (0, 0) is the
top-left corner, i.e. the first character of the board string.
"""

from enum import Enum
import math


class Element(Enum):
    """Every glyph of the board, in the order of Codenjoy's Element enum."""

    # Field objects.
    NONE = " "
    WALL = "☼"
    START_FLOOR = "#"
    OTHER = "?"
    APPLE = "○"
    STONE = "●"
    FLYING_PILL = "©"
    FURY_PILL = "®"
    GOLD = "$"

    # My snake.
    HEAD_DOWN = "▼"
    HEAD_LEFT = "◄"
    HEAD_RIGHT = "►"
    HEAD_UP = "▲"
    HEAD_DEAD = "☻"
    HEAD_EVIL = "♥"
    HEAD_FLY = "♠"
    HEAD_SLEEP = "&"
    TAIL_END_DOWN = "╙"
    TAIL_END_LEFT = "╘"
    TAIL_END_UP = "╓"
    TAIL_END_RIGHT = "╕"
    TAIL_INACTIVE = "~"
    BODY_HORIZONTAL = "═"
    BODY_VERTICAL = "║"
    BODY_LEFT_DOWN = "╗"
    BODY_LEFT_UP = "╝"
    BODY_RIGHT_DOWN = "╔"
    BODY_RIGHT_UP = "╚"

    # Enemy snakes.
    ENEMY_HEAD_DOWN = "˅"
    ENEMY_HEAD_LEFT = "<"
    ENEMY_HEAD_RIGHT = ">"
    ENEMY_HEAD_UP = "˄"
    ENEMY_HEAD_DEAD = "☺"
    ENEMY_HEAD_EVIL = "♣"
    ENEMY_HEAD_FLY = "♦"
    ENEMY_HEAD_SLEEP = "ø"
    ENEMY_TAIL_END_DOWN = "¤"
    ENEMY_TAIL_END_LEFT = "×"
    ENEMY_TAIL_END_UP = "æ"
    ENEMY_TAIL_END_RIGHT = "ö"
    ENEMY_TAIL_INACTIVE = "*"
    ENEMY_BODY_HORIZONTAL = "─"
    ENEMY_BODY_VERTICAL = "│"
    ENEMY_BODY_LEFT_DOWN = "┐"
    ENEMY_BODY_LEFT_UP = "┘"
    ENEMY_BODY_RIGHT_DOWN = "┌"
    ENEMY_BODY_RIGHT_UP = "└"

    @staticmethod
    def of(glyph):
        """The element for a glyph; OTHER for one this client does not know,
        so that a newer server cannot crash an older client."""
        try:
            return Element(glyph)
        except ValueError:
            return Element.OTHER


E = Element

MY_HEADS = {E.HEAD_DOWN, E.HEAD_LEFT, E.HEAD_RIGHT, E.HEAD_UP, E.HEAD_DEAD,
            E.HEAD_EVIL, E.HEAD_FLY, E.HEAD_SLEEP}
MY_BODY = {E.BODY_HORIZONTAL, E.BODY_VERTICAL, E.BODY_LEFT_DOWN, E.BODY_LEFT_UP,
           E.BODY_RIGHT_DOWN, E.BODY_RIGHT_UP, E.TAIL_END_DOWN, E.TAIL_END_LEFT,
           E.TAIL_END_UP, E.TAIL_END_RIGHT, E.TAIL_INACTIVE}
ENEMY_HEADS = {E.ENEMY_HEAD_DOWN, E.ENEMY_HEAD_LEFT, E.ENEMY_HEAD_RIGHT,
               E.ENEMY_HEAD_UP, E.ENEMY_HEAD_DEAD, E.ENEMY_HEAD_EVIL,
               E.ENEMY_HEAD_FLY, E.ENEMY_HEAD_SLEEP}
ENEMY_BODY = {E.ENEMY_BODY_HORIZONTAL, E.ENEMY_BODY_VERTICAL,
              E.ENEMY_BODY_LEFT_DOWN, E.ENEMY_BODY_LEFT_UP,
              E.ENEMY_BODY_RIGHT_DOWN, E.ENEMY_BODY_RIGHT_UP,
              E.ENEMY_TAIL_END_DOWN, E.ENEMY_TAIL_END_LEFT, E.ENEMY_TAIL_END_UP,
              E.ENEMY_TAIL_END_RIGHT, E.ENEMY_TAIL_INACTIVE}
# Start floors kill like walls do; OTHER is unknown, so it is kept clear of.
BARRIERS = {E.WALL, E.START_FLOOR, E.OTHER} | MY_HEADS | MY_BODY | ENEMY_HEADS | ENEMY_BODY

# Which way a head glyph says the snake is going, as (dx, dy).
HEAD_DIRECTION = {
    E.HEAD_UP: (0, -1), E.HEAD_DOWN: (0, 1), E.HEAD_LEFT: (-1, 0), E.HEAD_RIGHT: (1, 0),
}


class Board:
    """One board as the server sent it."""

    def __init__(self, text):
        if text.startswith("board="):
            text = text[len("board="):]
        self.size = math.isqrt(len(text))
        if self.size * self.size != len(text):
            raise ValueError(f"a board has a square number of cells, not {len(text)}")
        self.cells = [Element.of(ch) for ch in text]

    def get_at(self, x, y):
        """The element at (x, y); WALL outside the board."""
        if 0 <= x < self.size and 0 <= y < self.size:
            return self.cells[y * self.size + x]
        return Element.WALL

    def find_all(self, *elements):
        """Every (x, y) holding one of the elements, in reading order."""
        wanted = set(elements)
        return [(i % self.size, i // self.size)
                for i, e in enumerate(self.cells) if e in wanted]

    def my_head(self):
        """(x, y) of my head, or None when it is not on the board."""
        found = self.find_all(*MY_HEADS)
        return found[0] if found else None

    def my_head_element(self):
        head = self.my_head()
        return self.get_at(*head) if head else None

    def my_body(self):
        """Every cell of my snake except the head."""
        return self.find_all(*MY_BODY)

    def my_length(self):
        return len(self.my_body()) + (1 if self.my_head() else 0)

    def is_alive(self):
        return self.my_head_element() not in (None, E.HEAD_DEAD)

    def is_sleeping(self):
        return self.my_head_element() == E.HEAD_SLEEP

    def enemy_heads(self):
        return self.find_all(*ENEMY_HEADS)

    def enemy_body(self):
        return self.find_all(*ENEMY_BODY)

    def apples(self):
        return self.find_all(E.APPLE)

    def gold(self):
        return self.find_all(E.GOLD)

    def stones(self):
        return self.find_all(E.STONE)

    def walls(self):
        return self.find_all(E.WALL)

    def start_floors(self):
        return self.find_all(E.START_FLOOR)

    def fury_pills(self):
        return self.find_all(E.FURY_PILL)

    def flying_pills(self):
        return self.find_all(E.FLYING_PILL)

    def is_barrier(self, x, y):
        """Whether moving the head onto (x, y) kills or hurts: walls, start
        floors, anything off the board, and any snake."""
        return self.get_at(x, y) in BARRIERS

    def __str__(self):
        rows = []
        for y in range(self.size):
            row = self.cells[y * self.size:(y + 1) * self.size]
            rows.append("".join(e.value for e in row))
        return "\n".join(rows)
