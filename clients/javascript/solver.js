'use strict';
// The bot's brain: one command per board. Start modifying here.
//
// The strategy is deliberately simple: among the moves that do not hit a
// barrier (and, if possible, do not eat a stone), take the one that brings
// the head closest to the nearest apple or gold. The snake never turns back
// on itself: the server would ignore a 180-degree turn anyway.

const { Element, HEAD_DIRECTION } = require('./board');

const MOVES = [
  ['UP', 0, -1],
  ['DOWN', 0, 1],
  ['LEFT', -1, 0],
  ['RIGHT', 1, 0],
];

const distance = (a, b) => Math.abs(a.x - b.x) + Math.abs(a.y - b.y);

// The command to send for this board.
function choose(board) {
  const head = board.myHead();
  // Dead and not shown, or not seated yet: the answer does not matter, but
  // the server waits for one before it sends the next board.
  if (!head) return 'RIGHT';
  const facing = HEAD_DIRECTION.get(board.getAt(head.x, head.y));
  const targets = [...board.apples(), ...board.gold()];

  const safe = [];
  const risky = [];
  for (const [name, dx, dy] of MOVES) {
    const isReverse = facing && dx === -facing.dx && dy === -facing.dy;
    const cell = { x: head.x + dx, y: head.y + dy };
    if (isReverse || board.isBarrier(cell.x, cell.y)) continue;
    (board.getAt(cell.x, cell.y) === Element.STONE ? risky : safe).push({ name, cell });
  }

  const options = safe.length ? safe : risky;
  if (!options.length) {
    // Every way is blocked: keep going and hope.
    const f = facing || { dx: 1, dy: 0 };
    return MOVES.find(([, dx, dy]) => dx === f.dx && dy === f.dy)[0];
  }
  if (!targets.length) return options[0].name;
  const score = (o) => Math.min(...targets.map((t) => distance(o.cell, t)));
  return options.reduce((best, o) => (score(o) < score(best) ? o : best)).name;
}

module.exports = { choose };
