// KingOfBots Snake starter bot: a random safe mover (node, no packages).
// Each round reads one line,
// `<map>#<row>#<col>#(<steps>)#<row>#<col>#(<steps>)` (own snake first; the
// map is 13 rows of `0` grass and `1` wall), rebuilds both snakes by
// replaying their steps, and answers 0 (up), 1 (right), 2 (down) or
// 3 (left). See ../README.md.
const readline = require("readline");

const ROWS = 13, DR = [-1, 0, 1, 0], DC = [0, 1, 0, -1];

// The snake's cells, tail first: it grows on steps 1-10, then every 3rd.
function body(r, c, steps) {
  const cells = [[r, c]];
  [...steps.slice(1, -1)].forEach((d, i) => {
    r += DR[+d]; c += DC[+d];
    cells.push([r, c]);
    const n = i + 1;
    if (!(n <= 10 || n % 3 === 1)) cells.shift();
  });
  return cells;
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const p = line.trim().split("#");
  const cols = p[0].length / ROWS;
  const blocked = new Set([...p[0]].flatMap((ch, i) => (ch === "1" ? [i] : [])));
  const me = body(+p[1], +p[2], p[3]);
  for (const [r, c] of [...me, ...body(+p[4], +p[5], p[6])]) blocked.add(r * cols + c);
  const [r, c] = me[me.length - 1];
  const safe = [0, 1, 2, 3].filter((d) => {
    const [nr, nc] = [r + DR[d], c + DC[d]];
    return nr >= 0 && nr < ROWS && nc >= 0 && nc < cols && !blocked.has(nr * cols + nc);
  });
  process.stdout.write((safe.length ? safe[Math.floor(Math.random() * safe.length)] : 0) + "\n");
});
