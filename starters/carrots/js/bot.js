// CodeCarrots snakes starter bot: a random safe mover (node, no packages).
// Each tick reads the board, exactly HEIGHT lines of WIDTH characters (`.`
// empty, `o` apple, `#` any snake, `H` our head), and answers `left`,
// `right`, `up` or `down`. The size comes from the command line (default
// 120 80), since the board has no header. See ../README.md.
const readline = require("readline");

const [W, H] = process.argv.length > 3 ? process.argv.slice(2, 4).map(Number) : [120, 80];
const MOVES = [["up", 0, -1], ["right", 1, 0], ["down", 0, 1], ["left", -1, 0]];
let rows = [];

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  rows.push(line);
  if (rows.length < H) return;
  const y = rows.findIndex((r) => r.includes("H"));
  const x = rows[y].indexOf("H");
  // Leaving the board kills, and so does any snake cell.
  const safe = MOVES.filter(([, dx, dy]) => {
    const [nx, ny] = [x + dx, y + dy];
    return nx >= 0 && nx < W && ny >= 0 && ny < H && ".o".includes(rows[ny][nx]);
  });
  const pick = safe.length ? safe[Math.floor(Math.random() * safe.length)][0] : "up";
  process.stdout.write(pick + "\n");
  rows = [];
});
