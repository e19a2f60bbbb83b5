// SOI Multisnake starter bot: a random safe mover (node, no packages).
// Reads the header `W H N M T` once, then H lines of W characters each
// turn, and answers one of `^ > v <`. The map wraps. See ../README.md.
const readline = require("readline");

const MOVES = [["^", 0, -1], [">", 1, 0], ["v", 0, 1], ["<", -1, 0]];
let w, h, me;
let rows = [];

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (me === undefined) {
    const [W, H, , M] = line.trim().split(/\s+/).map(Number);
    [w, h, me] = [W, H, String.fromCharCode(64 + M)];
    return;
  }
  rows.push(line);
  if (rows.length < h) return;
  const y = rows.findIndex((r) => r.includes(me));
  const x = rows[y].indexOf(me);
  // Free tiles and signs are safe; everything else blocks.
  const safe = MOVES.filter(([, dx, dy]) => ".+-".includes(rows[(y + dy + h) % h][(x + dx + w) % w]));
  const pick = safe.length ? safe[Math.floor(Math.random() * safe.length)][0] : "^";
  process.stdout.write(pick + "\n");
  rows = [];
});
