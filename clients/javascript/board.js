'use strict';
// The SnakeBattle board: every glyph the server sends, and helpers to ask
// the board questions.
//
// Coordinates: x grows to the right, y grows downwards, and (0, 0) is the
// top-left corner, i.e. the first character of the board string.

// Every glyph of the board, in the order of Codenjoy's Element enum.
const Element = Object.freeze({
  // Field objects.
  NONE: ' ',
  WALL: '☼',
  START_FLOOR: '#',
  OTHER: '?',
  APPLE: '○',
  STONE: '●',
  FLYING_PILL: '©',
  FURY_PILL: '®',
  GOLD: '$',

  // My snake.
  HEAD_DOWN: '▼',
  HEAD_LEFT: '◄',
  HEAD_RIGHT: '►',
  HEAD_UP: '▲',
  HEAD_DEAD: '☻',
  HEAD_EVIL: '♥',
  HEAD_FLY: '♠',
  HEAD_SLEEP: '&',
  TAIL_END_DOWN: '╙',
  TAIL_END_LEFT: '╘',
  TAIL_END_UP: '╓',
  TAIL_END_RIGHT: '╕',
  TAIL_INACTIVE: '~',
  BODY_HORIZONTAL: '═',
  BODY_VERTICAL: '║',
  BODY_LEFT_DOWN: '╗',
  BODY_LEFT_UP: '╝',
  BODY_RIGHT_DOWN: '╔',
  BODY_RIGHT_UP: '╚',

  // Enemy snakes.
  ENEMY_HEAD_DOWN: '˅',
  ENEMY_HEAD_LEFT: '<',
  ENEMY_HEAD_RIGHT: '>',
  ENEMY_HEAD_UP: '˄',
  ENEMY_HEAD_DEAD: '☺',
  ENEMY_HEAD_EVIL: '♣',
  ENEMY_HEAD_FLY: '♦',
  ENEMY_HEAD_SLEEP: 'ø',
  ENEMY_TAIL_END_DOWN: '¤',
  ENEMY_TAIL_END_LEFT: '×',
  ENEMY_TAIL_END_UP: 'æ',
  ENEMY_TAIL_END_RIGHT: 'ö',
  ENEMY_TAIL_INACTIVE: '*',
  ENEMY_BODY_HORIZONTAL: '─',
  ENEMY_BODY_VERTICAL: '│',
  ENEMY_BODY_LEFT_DOWN: '┐',
  ENEMY_BODY_LEFT_UP: '┘',
  ENEMY_BODY_RIGHT_DOWN: '┌',
  ENEMY_BODY_RIGHT_UP: '└',
});

const KNOWN = new Set(Object.values(Element));
const E = Element;

const MY_HEADS = new Set([E.HEAD_DOWN, E.HEAD_LEFT, E.HEAD_RIGHT, E.HEAD_UP,
  E.HEAD_DEAD, E.HEAD_EVIL, E.HEAD_FLY, E.HEAD_SLEEP]);
const MY_BODY = new Set([E.BODY_HORIZONTAL, E.BODY_VERTICAL, E.BODY_LEFT_DOWN,
  E.BODY_LEFT_UP, E.BODY_RIGHT_DOWN, E.BODY_RIGHT_UP, E.TAIL_END_DOWN,
  E.TAIL_END_LEFT, E.TAIL_END_UP, E.TAIL_END_RIGHT, E.TAIL_INACTIVE]);
const ENEMY_HEADS = new Set([E.ENEMY_HEAD_DOWN, E.ENEMY_HEAD_LEFT,
  E.ENEMY_HEAD_RIGHT, E.ENEMY_HEAD_UP, E.ENEMY_HEAD_DEAD, E.ENEMY_HEAD_EVIL,
  E.ENEMY_HEAD_FLY, E.ENEMY_HEAD_SLEEP]);
const ENEMY_BODY = new Set([E.ENEMY_BODY_HORIZONTAL, E.ENEMY_BODY_VERTICAL,
  E.ENEMY_BODY_LEFT_DOWN, E.ENEMY_BODY_LEFT_UP, E.ENEMY_BODY_RIGHT_DOWN,
  E.ENEMY_BODY_RIGHT_UP, E.ENEMY_TAIL_END_DOWN, E.ENEMY_TAIL_END_LEFT,
  E.ENEMY_TAIL_END_UP, E.ENEMY_TAIL_END_RIGHT, E.ENEMY_TAIL_INACTIVE]);
// Start floors kill like walls do; OTHER is unknown, so it is kept clear of.
const BARRIERS = new Set([E.WALL, E.START_FLOOR, E.OTHER,
  ...MY_HEADS, ...MY_BODY, ...ENEMY_HEADS, ...ENEMY_BODY]);

// Which way a head glyph says the snake is going.
const HEAD_DIRECTION = new Map([
  [E.HEAD_UP, { dx: 0, dy: -1 }],
  [E.HEAD_DOWN, { dx: 0, dy: 1 }],
  [E.HEAD_LEFT, { dx: -1, dy: 0 }],
  [E.HEAD_RIGHT, { dx: 1, dy: 0 }],
]);

class Board {
  constructor(text) {
    if (text.startsWith('board=')) text = text.slice('board='.length);
    // Every glyph is in the BMP, so one UTF-16 unit is one cell.
    this.size = Math.round(Math.sqrt(text.length));
    if (this.size * this.size !== text.length) {
      throw new Error(`a board has a square number of cells, not ${text.length}`);
    }
    // A glyph this client does not know reads as OTHER, so that a newer
    // server cannot crash an older client.
    this.cells = Array.from(text, (ch) => (KNOWN.has(ch) ? ch : E.OTHER));
  }

  // The element at (x, y); WALL outside the board.
  getAt(x, y) {
    if (x < 0 || y < 0 || x >= this.size || y >= this.size) return E.WALL;
    return this.cells[y * this.size + x];
  }

  // Every {x, y} holding one of the elements, in reading order.
  findAll(...elements) {
    const wanted = new Set(elements);
    const found = [];
    this.cells.forEach((e, i) => {
      if (wanted.has(e)) found.push({ x: i % this.size, y: Math.floor(i / this.size) });
    });
    return found;
  }

  // My head, or null when it is not on the board.
  myHead() {
    return this.findAll(...MY_HEADS)[0] || null;
  }

  myHeadElement() {
    const head = this.myHead();
    return head ? this.getAt(head.x, head.y) : null;
  }

  // Every cell of my snake except the head.
  myBody() { return this.findAll(...MY_BODY); }

  myLength() { return this.myBody().length + (this.myHead() ? 1 : 0); }

  isAlive() {
    const head = this.myHeadElement();
    return head !== null && head !== E.HEAD_DEAD;
  }

  isSleeping() { return this.myHeadElement() === E.HEAD_SLEEP; }

  enemyHeads() { return this.findAll(...ENEMY_HEADS); }

  enemyBody() { return this.findAll(...ENEMY_BODY); }

  apples() { return this.findAll(E.APPLE); }

  gold() { return this.findAll(E.GOLD); }

  stones() { return this.findAll(E.STONE); }

  walls() { return this.findAll(E.WALL); }

  startFloors() { return this.findAll(E.START_FLOOR); }

  furyPills() { return this.findAll(E.FURY_PILL); }

  flyingPills() { return this.findAll(E.FLYING_PILL); }

  // Whether moving the head onto (x, y) kills or hurts: walls, start floors,
  // anything off the board, and any snake.
  isBarrier(x, y) { return BARRIERS.has(this.getAt(x, y)); }

  toString() {
    const rows = [];
    for (let y = 0; y < this.size; y++) {
      rows.push(this.cells.slice(y * this.size, (y + 1) * this.size).join(''));
    }
    return rows.join('\n');
  }
}

module.exports = { Element, Board, HEAD_DIRECTION };
