// The player page: keyboard play turns the player's own snake.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, ownServer, register, uniqueName, until, unexpectedErrors } from './helpers.mjs';

const PERPENDICULAR = { up: ['left', 'right'], down: ['left', 'right'], left: ['up', 'down'], right: ['up', 'down'] };
const KEY = { up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight' };
const WASD = { up: 'KeyW', down: 'KeyS', left: 'KeyA', right: 'KeyD' };
const CMD = { up: 'UP', down: 'DOWN', left: 'LEFT', right: 'RIGHT' };

/** My snake in the page's latest frame, with the frame. */
function mine(page) {
  return page.evaluate(() => {
    const h = window.__snakepit;
    if (!h || !h.frame || !h.player) return null;
    const s = h.frame.snakes.find((x) => x.seat === h.player.seat);
    return s ? { frame: { tick: h.frame.tick, phase: h.frame.phase, paused: h.frame.paused }, snake: s } : null;
  });
}

/** Of two directions, the one with more free cells straight ahead of my head. */
function roomier(page, dirs) {
  return page.evaluate((dirs) => {
    const h = window.__snakepit;
    const f = h.frame;
    const me = f.snakes.find((x) => x.seat === h.player.seat);
    const cells = Array.from(f.cells);
    const taken = new Set();
    for (const s of f.snakes) for (const [x, y] of s.body) taken.add(x + ',' + y);
    const D = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] };
    let best = dirs[0];
    let bestN = -1;
    for (const d of dirs) {
      let [x, y] = me.body[0];
      let n = 0;
      for (;;) {
        x += D[d][0];
        y += D[d][1];
        if (x < 0 || y < 0 || x >= f.size || y >= f.size) break;
        const g = cells[y * f.size + x];
        if (g === '☼' || g === '#' || g === '●' || taken.has(x + ',' + y)) break;
        n++;
      }
      if (n > bestN) {
        best = d;
        bestN = n;
      }
    }
    return best;
  }, dirs);
}

/** Waits until my snake is awake and moving in a running round. */
async function awake(page) {
  await page.waitForFunction(
    () => {
      const h = window.__snakepit;
      if (!h || !h.frame || !h.player) return false;
      const s = h.frame.snakes.find((x) => x.seat === h.player.seat);
      return h.frame.phase === 'running' && !h.frame.paused && s && s.alive && !s.sleeping;
    },
    null,
    { timeout: 60000, polling: 20 }
  );
}

/**
 * Presses `key` and checks that the page sent the command, that the
 * server logged it, and that a later frame shows the head turned.
 */
async function turn(page, keyOf) {
  const state = await mine(page);
  const want = await roomier(page, PERPENDICULAR[state.snake.dir]);
  const t0 = state.frame.tick;
  await page.keyboard.press(keyOf[want]);
  const sent = await page.evaluate(() => window.__snakepit.sent.slice(-1)[0]);
  assert.equal(sent, CMD[want], 'the page sent the command on its socket');
  // The server logged the answer as coming from the page.
  const entry = await until(
    () =>
      page.evaluate((cmd) => (window.__snakepit.player.log || []).find((a) => a.text === cmd && /from the page/.test(a.note)), CMD[want]),
    { timeout: 60000, every: 50, what: 'the log entry for ' + CMD[want] }
  );
  assert.match(entry.note, /^from the page: ok/);
  // A later frame shows the head turned, or the snake died on that very
  // move (in which case the caller tries again).
  const after = await until(
    async () => {
      const m = await mine(page);
      return m && m.frame.tick > t0 && (m.snake.dir === want || !m.snake.alive || m.snake.sleeping) ? m : null;
    },
    { timeout: 60000, every: 20, what: 'a frame after the key' }
  );
  // The log on the page shows it as well.
  const shown = await page.locator('#log tr td.text', { hasText: CMD[want] }).count();
  assert.ok(shown > 0, 'the answer log on the page shows ' + CMD[want]);
  return { want, after };
}

test('keys on the player page turn the player snake', { timeout: 300000 }, async (t) => {
  const b = await launch(t);
  const me = await register(uniqueName('keys'));
  assert.match(me.url, /\/codenjoy-contest\/board\/player\/[^?]+\?code=.+/);
  const page = await b.newPage();
  await page.goto(me.url);
  await page.waitForFunction(() => window.__snakepit && window.__snakepit.player, null, { timeout: 60000 });

  // The page shows who we are, the bot's view and the URLs for a bot.
  const info = await page.evaluate(() => ({
    name: document.getElementById('me-name').textContent,
    board: document.getElementById('bot-board').textContent,
    size: window.__snakepit.frame.size,
    pageUrl: document.getElementById('page-url').value,
    wsUrl: document.getElementById('ws-url').value,
  }));
  assert.equal(info.name, me.name);
  const rows = info.board.split('\n');
  assert.equal(rows.length, info.size);
  assert.ok(rows.every((r) => Array.from(r).length === info.size), 'rows of size characters');
  assert.equal(info.pageUrl, me.url);
  assert.equal(await page.isVisible('#page-url-client'), true, 'a Codenjoy client takes this page URL');
  assert.equal((await page.textContent('#me-bot')).trim(), 'no bot connected');
  assert.equal(info.wsUrl, me.url.replace(/^http/, 'ws').replace('board/player/', 'ws?user=').replace('?code=', '&code='));

  // A snake that arrived during a round waits for the next, and the page
  // says how long that may take.
  const waiting = await page.evaluate(() => {
    const f = window.__snakepit.frame;
    const me = f.snakes.find((s) => s.name === document.getElementById('me-name').textContent);
    return f.phase === 'running' && me && me.alive && me.sleeping ? document.getElementById('me-status').textContent : null;
  });
  if (waiting !== null) assert.match(waiting, /^waiting for the next round \(at most \d+ ticks\)$/);

  let arrow = null;
  let wasd = null;
  for (let attempt = 0; attempt < 4 && !(arrow && wasd); attempt++) {
    await awake(page);
    const a = await turn(page, KEY);
    if (a.after.snake.dir !== a.want) continue; // died on that move; wait for the next round
    arrow = a;
    const w = await turn(page, WASD);
    if (w.after.snake.dir !== w.want) continue;
    wasd = w;
  }
  assert.ok(arrow, 'an arrow key turned the snake');
  assert.ok(wasd, 'a WASD key turned the snake');
  assert.equal(arrow.after.snake.dir, arrow.want);
  assert.equal(wasd.after.snake.dir, wasd.want);

  // Space sends ACT.
  await page.keyboard.press('Space');
  assert.equal(await page.evaluate(() => window.__snakepit.sent.slice(-1)[0]), 'ACT');
  await until(() => page.evaluate(() => (window.__snakepit.player.log || []).some((a) => a.text === 'ACT')), {
    timeout: 60000,
    what: 'ACT in the log',
  });

  await page.screenshot({ path: '/tmp/snakepit-player.png' });
  assert.deepEqual(unexpectedErrors(b.problems), []);
  assert.deepEqual(b.problems.dialogs, []);
});

test('the player page reports a wrong code instead of showing a board', { timeout: 300000 }, async (t) => {
  const b = await launch(t);
  const me = await register(uniqueName('badcode'));
  const page = await b.newPage();
  let sockets = 0;
  page.on('websocket', () => (sockets += 1));
  await page.goto(me.url.replace(/code=.*/, 'code=wrong'));
  await page.waitForFunction(() => window.__snakepit && window.__snakepit.refused === true, null, { timeout: 60000 });
  const text = await page.locator('#player-error').textContent();
  assert.match(text, /does not know this player id and code/);
  assert.match(await page.textContent('#conn'), /disconnected/);
  // Retrying cannot help, and the page does not.
  const tried = sockets;
  await page.waitForTimeout(3000);
  assert.equal(sockets, tried, 'no new connection after the refusal');
  assert.deepEqual(unexpectedErrors(b.problems, [/WebSocket connection to .* failed/, /status of 401/]), []);
});

test('a player page says the server cannot be reached when it stops, not that the address is wrong', { timeout: 300000 }, async (t) => {
  const { url, child } = await ownServer(t, 'games = ["duel"]\n');
  const res = await fetch(url + '/api/register', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: uniqueName('gone'), game: 'duel' }),
  });
  const me = await res.json();
  const b = await launch(t);
  const page = await b.newPage();
  await page.goto(me.url);
  await page.waitForFunction(() => window.__snakepit && window.__snakepit.player, null, { timeout: 60000 });
  child.kill('SIGKILL');
  await page.waitForFunction(() => /Cannot reach the server/.test(window.__snakepit.error || ''), null, { timeout: 60000 });
  assert.doesNotMatch(await page.locator('#player-error').textContent(), /id and code/);
  // The failed reconnections are the expected console errors.
  assert.deepEqual(unexpectedErrors(b.problems, [/ERR_CONNECTION_REFUSED|WebSocket|Failed to fetch|net::/]), []);
});
