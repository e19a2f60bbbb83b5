// The stdin/stdout arenas in the browser: a spectator watches a duel to its
// result, a person steers their duel snake with WASD and the arrow keys,
// a contestant uploads a program whose stderr shows on their page only, and
// a duel player saves KingOfBots' own Java bot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, register, uniqueName, until, unexpectedErrors } from './helpers.mjs';

const DELTA = { UP: [0, -1], RIGHT: [1, 0], DOWN: [0, 1], LEFT: [-1, 0] };
const WORD = { up: 'UP', right: 'RIGHT', down: 'DOWN', left: 'LEFT' };
const OPPOSITE = { UP: 'DOWN', DOWN: 'UP', LEFT: 'RIGHT', RIGHT: 'LEFT' };
const WASD = { UP: 'w', LEFT: 'a', DOWN: 's', RIGHT: 'd' };
const ARROWS = { UP: 'ArrowUp', LEFT: 'ArrowLeft', DOWN: 'ArrowDown', RIGHT: 'ArrowRight' };

test('a spectator sees a duel: walls, both snakes, the round and the result', async (t) => {
  const { newPage, problems } = await launch(t);
  const page = await newPage();
  await page.goto(BASE + '/room/duel');
  await page.waitForFunction(() => {
    const f = window.__snakepit && window.__snakepit.frame;
    return !!f && f.game === 'duel' && f.snakes.length === 2 && f.cells.includes('#') && window.__snakepit.view.draws > 0;
  });
  const frame = await page.evaluate(() => window.__snakepit.frame);
  assert.equal(Array.from(frame.cells).length, frame.width * frame.height);
  // A duel counts rounds, as KingOfBots and its result line do.
  assert.match(await page.textContent('#phase'), /^Game \d+ (· round \d+ of \d+|over)/);
  // A spectator can sign up for the game from here.
  assert.equal(await page.getAttribute('#join', 'href'), '/?game=duel#register');
  // Built-in bots finish a game within a minute at the test tick.
  await page.waitForFunction(() => {
    const f = window.__snakepit.frame;
    return f.phase === 'over' && !!f.result;
  }, null, { timeout: 90000, polling: 50 });
  const result = await page.textContent('#result');
  assert.match(result, /game \d+ (won by|ended in a draw|shared by)/);
  assert.equal(await page.isVisible('#result'), true);
  // The result banner is as wide as the board under it, and in line.
  const [banner, board] = await Promise.all(['#result', '.board-frame'].map((s) => page.locator(s).boundingBox()));
  assert.ok(Math.abs(banner.x - board.x) <= 1 && Math.abs(banner.width - board.width) <= 1, JSON.stringify({ banner, board }));
  assert.deepEqual(unexpectedErrors(problems), []);
});

/** My seat's head and direction in the page's latest frame, with what is free around it. */
function myState(page) {
  return page.evaluate(() => {
    const h = window.__snakepit;
    const f = h.frame;
    if (!f || h.seat === null || f.phase !== 'running' || f.paused) return null;
    const me = f.snakes.find((s) => s.seat === h.seat);
    // A person who sat down mid-game watches a bot play it out.
    if (!me || !me.alive || me.bot || !me.body.length) return null;
    const taken = new Set();
    for (const s of f.snakes) for (const c of s.body) taken.add(c[0] + ',' + c[1]);
    const free = (x, y) => x >= 0 && y >= 0 && x < f.width && y < f.height && f.cells[y * f.width + x] !== '#' && !taken.has(x + ',' + y);
    return { tick: f.tick, round: f.round, head: me.body[0], dir: me.dir, free: ['UP', 'RIGHT', 'DOWN', 'LEFT'].filter((d) => {
      const dd = { UP: [0, -1], RIGHT: [1, 0], DOWN: [0, 1], LEFT: [-1, 0] }[d];
      return free(me.body[0][0] + dd[0], me.body[0][1] + dd[1]);
    }) };
  });
}

/**
 * Presses a key that turns my snake (a free cell to its side) and checks in
 * the next two ticks that the head went that way. Returns true when seen,
 * false when the game got in the way (it ended, the snake died).
 */
async function turnWith(page, keys) {
  const s = await until(() => myState(page), { timeout: 60000, every: 20, what: 'my live snake in a running duel' });
  const dir = WORD[s.dir];
  const turns = s.free.filter((d) => d !== dir && d !== OPPOSITE[dir]);
  if (!turns.length) {
    // Walls on both sides: try again at a later tick, not at once (a try
    // per tick, so that a long corridor does not use up the tries).
    await until(() => page.evaluate((t0) => !!window.__snakepit.frame && window.__snakepit.frame.tick > t0, s.tick), {
      timeout: 60000,
      every: 20,
      what: 'the next tick',
    });
    return false;
  }
  const want = turns[0];
  await page.keyboard.press(keys[want]);
  const seen = await until(
    () =>
      page.evaluate((t0) => {
        const r = window.__snakepit.recent;
        const a = r.find((x) => x.tick === t0 + 1);
        const b = r.find((x) => x.tick === t0 + 2);
        return a && b ? { a, b } : null;
      }, s.tick),
    { timeout: 60000, every: 20, what: 'two more ticks' }
  );
  const seat = await page.evaluate(() => window.__snakepit.seat);
  const head = (x) => {
    const e = x.heads.find((hd) => hd[0] === seat);
    return e && e[1];
  };
  if (seen.a.round !== s.round || seen.b.round !== s.round || seen.a.phase !== 'running') return false;
  const step = (p, d) => [p[0] + DELTA[d][0], p[1] + DELTA[d][1]];
  const h1 = head(seen.a);
  const h2 = head(seen.b);
  if (!h1) return false;
  // The key lands at the next tick, or at the one after if it arrived late.
  if (h1[0] === step(s.head, want)[0] && h1[1] === step(s.head, want)[1]) return true;
  assert.deepEqual(h1, step(s.head, dir), 'without the key the snake goes straight on');
  if (!h2 || seen.b.phase !== 'running') return false;
  assert.deepEqual(h2, step(h1, want), 'the key turned the snake at the tick after');
  return true;
}

test('a person plays a duel with WASD and the arrow keys', async (t) => {
  const { newPage, problems } = await launch(t);
  const page = await newPage();
  const p = await register(uniqueName('duelist'), 'duel');
  await page.goto(p.url);
  await page.waitForFunction(() => window.__snakepit.game === 'duel' && window.__snakepit.seat !== null);
  assert.equal(await page.isVisible('#pad .up'), true, 'the on-screen pad is shown');
  assert.equal(await page.isVisible('#pad .act'), false, 'a duel has no ACT');
  assert.equal(await page.isVisible('#code-panel'), true, 'a duel player can also upload a program');
  assert.equal(await page.isVisible('#code-duel-note'), true, "the duel's KingOfBots starter is explained");
  assert.equal(await page.isVisible('#page-url-client'), false, 'Codenjoy clients do not play duels');
  for (const [name, keys] of [['WASD', WASD], ['arrows', ARROWS]]) {
    let ok = false;
    for (let i = 0; i < 30 && !ok; i++) ok = await turnWith(page, keys);
    assert.ok(ok, 'the snake turned with ' + name);
  }
  const log = await page.textContent('#log');
  assert.match(log, /from the page: ok: (up|down|left|right)/);
  // What a bot sees: the JSON line drawn as the board (13 rows of 14, the
  // player's head among them), with the line itself below.
  const seen = await until(async () => {
    const text = await page.textContent('#bot-board');
    return /^tick \d+ · you are [AB]/.test(text) ? text : null;
  }, { what: 'the picture of the bot\'s state' });
  const [title, ...rows] = seen.split('\n');
  assert.equal(rows.length, 13, seen);
  assert.ok(rows.every((r) => r.length === 14), seen);
  assert.ok(rows.join('').includes(title.match(/you are ([AB])/)[1]), 'the player\'s head is drawn: ' + seen);
  assert.match(await page.textContent('#bot-line'), /^\{"game":"duel"/);
  assert.deepEqual(unexpectedErrors(problems), []);
});

const MARKER_BOT = [
  'import random, sys',
  'W, H = 120, 80',
  'MOVES = [("up", 0, -1), ("right", 1, 0), ("down", 0, 1), ("left", -1, 0)]',
  'n = 0',
  'while True:',
  '    rows = [sys.stdin.readline().rstrip("\\n") for _ in range(H)]',
  '    if not rows[-1]:',
  '        break',
  '    n += 1',
  '    print(f"tick {n}: <b>stderr-marker</b>", file=sys.stderr, flush=True)',
  '    y = next(i for i, r in enumerate(rows) if "H" in r)',
  '    x = rows[y].index("H")',
  '    safe = [m for m, dx, dy in MOVES if 0 <= x + dx < W and 0 <= y + dy < H and rows[y + dy][x + dx] in ".o"]',
  '    print(random.choice(safe) if safe else "up", flush=True)',
  '',
].join('\n');

test("an uploaded program runs, and its stderr shows on its owner's page only", async (t) => {
  const { newPage, problems } = await launch(t);
  const page = await newPage();
  const p = await register(uniqueName('coder'), 'carrots');
  await page.goto(p.url);
  await page.waitForFunction(() => window.__snakepit.codeLoaded === true && window.__snakepit.player !== null);
  // The editor starts with the starter; Tab inserts spaces.
  assert.match(await page.inputValue('#code-source'), /random safe mover/);
  await page.fill('#code-source', '');
  await page.focus('#code-source');
  await page.keyboard.press('Tab');
  assert.equal(await page.inputValue('#code-source'), '    ');
  await page.selectOption('#code-lang', 'python');
  await page.fill('#code-name', 'marker bot');
  await page.fill('#code-source', MARKER_BOT);
  await page.click('#code-save');
  await page.waitForFunction(() => window.__snakepit.codeSaved === 1);
  await page.waitForFunction(() => window.__snakepit.stderr.some((l) => l.includes('stderr-marker')), null, { timeout: 60000 });
  // Shown as text: the markup in the program's output is not markup here.
  assert.match(await page.textContent('#stderr'), /<b>stderr-marker<\/b>/);
  assert.equal(await page.locator('#stderr b').count(), 0);
  // The program plays: its answers are in the log, and the page says it is the program.
  await page.waitForFunction(() => /ok after \d+ ms/.test(document.getElementById('log').textContent), null, { timeout: 60000 });
  // Its good answers are marked as such.
  const okRow = page.locator('#log tr', { hasText: /ok after \d+ ms/ }).first();
  assert.match(await okRow.getAttribute('class'), /\bgood\b/);
  assert.equal((await page.textContent('#me-bot')).trim(), 'program playing');
  assert.equal(await page.isVisible('#code-duel-note'), false, 'the KingOfBots note is for duels only');
  // A spectator of the same room never gets it.
  const room = await page.evaluate(() => window.__snakepit.player.room);
  const watcher = await newPage();
  await watcher.goto(BASE + '/room/' + encodeURIComponent(room));
  await watcher.waitForFunction(() => window.__snakepit.frames > 10, null, { timeout: 60000 });
  const seen = await watcher.evaluate(() => document.documentElement.outerHTML + JSON.stringify(window.__snakepit.frame));
  assert.ok(seen.includes(p.name), 'the spectator sees the player');
  assert.ok(!seen.includes('stderr-marker'), 'but not their stderr');
  assert.deepEqual(unexpectedErrors(problems), []);
});

test("a duel player saves the arena's own Java bot, and it plays", async (t) => {
  const { newPage, problems } = await launch(t);
  const page = await newPage();
  const p = await register(uniqueName('kob'), 'duel');
  await page.goto(p.url);
  await page.waitForFunction(() => window.__snakepit.codeLoaded === true && window.__snakepit.player !== null);
  // The Java starter is KingOfBots' sample bot: a Supplier<Integer> that
  // reads input.txt, saved as it is.
  await page.selectOption('#code-lang', 'java');
  await page.click('#code-starter');
  assert.match(await page.inputValue('#code-source'), /implements java\.util\.function\.Supplier<Integer>/);
  await page.fill('#code-name', 'sample');
  await page.click('#code-save');
  await page.waitForFunction(() => window.__snakepit.codeSaved === 1);
  // Compiled in the sandbox, then it answers moves.
  await page.waitForFunction(() => /ok after \d+ ms/.test(document.getElementById('log').textContent), null, { timeout: 60000 });
  // A version that does not compile is refused at save, with javac's words
  // on the page; the sample plays on.
  await page.fill('#code-source', 'public class Bot implements java.util.function.Supplier<Integer> {\n  public Integer get() { return "up"; }\n}\n');
  await page.click('#code-save');
  await page.waitForFunction(() => /does not compile/.test(document.getElementById('code-error').textContent), null, { timeout: 60000 });
  assert.match(await page.textContent('#code-error'), /Bot\.java:2: error: incompatible types/);
  assert.equal(await page.evaluate(() => window.__snakepit.codeSaved), 1);
  assert.deepEqual(unexpectedErrors(problems, [/422/]), []);
});

test('two people meet in a duel room of their choosing', async (t) => {
  const { newPage, problems } = await launch(t);
  const ann = await register(uniqueName('ann'), 'duel');
  const cid = await register(uniqueName('cid'), 'duel');
  const a = await newPage();
  const c = await newPage();
  await a.goto(ann.url);
  await c.goto(cid.url);
  for (const pg of [a, c]) await pg.waitForFunction(() => !!window.__snakepit.player && window.__snakepit.seat !== null);
  // Ann opens a new room: her page reconnects to it without a word of a lost connection.
  await a.selectOption('#move-room', '');
  await a.click('#move-go');
  await a.waitForFunction(() => /^You play in room /.test(document.getElementById('move-msg').textContent));
  const room = await a.evaluate(() => window.__snakepit.moved);
  await a.waitForFunction((r) => document.getElementById('me-room').textContent === r, room, { timeout: 60000 });
  assert.equal(await a.isVisible('#player-error'), false, 'no error on the page after the move');
  // Cid finds it in the list, with Ann in it, and follows her.
  await c.waitForFunction(
    ([r, name]) => Array.from(document.querySelectorAll('#move-room option')).some((o) => o.value === r && !o.disabled && o.textContent.includes(name)),
    [room, ann.name],
    { timeout: 60000 }
  );
  await c.selectOption('#move-room', room);
  await c.click('#move-go');
  await c.waitForFunction((r) => document.getElementById('me-room').textContent === r, room, { timeout: 60000 });
  // Both pages show a duel between the two of them.
  for (const pg of [a, c]) {
    await pg.waitForFunction(
      (names) => {
        const f = window.__snakepit.frame;
        return !!f && names.every((n) => f.players.some((p) => p.name === n && !p.bot));
      },
      [ann.name, cid.name],
      { timeout: 60000 }
    );
  }
  const seats = await Promise.all([a, c].map((pg) => pg.evaluate(() => window.__snakepit.seat)));
  assert.notEqual(seats[0], seats[1]);
  // A full room cannot be chosen.
  const late = await register(uniqueName('late'), 'duel');
  const l = await newPage();
  await l.goto(late.url);
  await l.waitForFunction(
    (r) => Array.from(document.querySelectorAll('#move-room option')).some((o) => o.value === r && o.disabled && / · full$/.test(o.textContent)),
    room,
    { timeout: 60000 }
  );
  assert.deepEqual(unexpectedErrors(problems), []);
});
