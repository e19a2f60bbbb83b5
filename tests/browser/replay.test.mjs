// The offline replay viewer: a multisnake game between two Python bots
// that talk on stderr, written as one HTML page by `snakepit replay FILE
// --html OUT`, opened over file:// and scrubbed to a tick; the board, the
// status, the moves and each seat's stderr shown must be that tick's, as
// `snakepit replay FILE` prints them and as the stderr log recorded them.
// The fork panel then gives the command that continues the game from that
// tick with another bot in one seat, and the command, run, does exactly
// that.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, unexpectedErrors } from './helpers.mjs';

const BIN = process.env.SNAKEPIT_BIN;
if (!BIN) throw new Error('SNAKEPIT_BIN is not set: run the tests through scripts/browser-tests.sh');

const EVIL = '</script><img src=x onerror=alert(1)>';

// A safe mover for SOI Multisnake that says on stderr which turn it is in,
// and writes markup on stderr in its third turn.
const BOT = `
import sys
MOVES = [("^", 0, -1), (">", 1, 0), ("v", 0, 1), ("<", -1, 0)]
w, h, _n, m, _t = map(int, sys.stdin.readline().split())
me = chr(64 + m)
turn = 0
while True:
    rows = [sys.stdin.readline().rstrip("\\n") for _ in range(h)]
    if not rows[-1]:
        break
    turn += 1
    y = next(i for i, r in enumerate(rows) if me in r)
    x = rows[y].index(me)
    safe = [a for a, dx, dy in MOVES if rows[(y + dy) % h][(x + dx) % w] in ".+-"]
    print("tick %d seat %s" % (turn, me), file=sys.stderr, flush=True)
    if turn == 3:
        print(${JSON.stringify(EVIL)}, file=sys.stderr, flush=True)
    print(safe[(turn * m) % len(safe)] if safe else "^", flush=True)
`;

function snakepit(args) {
  return execFileSync(BIN, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** `s` as one single-quoted shell word. */
const shellQuoted = (s) => "'" + s.replace(/'/g, "'\\''") + "'";

/** Each tick's board rows and status line from `snakepit replay FILE`; index 0 is the start. */
function printedTicks(text, height) {
  const lines = text.split('\n');
  const ticks = [{ rows: lines.slice(1, 1 + height), status: lines[1 + height] }];
  lines.forEach((line, i) => {
    if (line.startsWith('== tick ')) ticks.push({ rows: lines.slice(i + 1, i + 1 + height), status: lines[i + 1 + height] });
  });
  return ticks;
}

/** The seat's stderr as the viewer shows it, from the log's entry. */
function shownStderr(entry) {
  const lines = entry.stderr.slice();
  if (entry.dropped) lines.push('(' + entry.dropped + ' more lines dropped)');
  return lines.join('\n');
}

async function scrubTo(page, t) {
  // What dragging the slider does: set its value, fire "input".
  await page.locator('#scrub').evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, t);
}

/**
 * The pixel of cell (x, y) once it is `want`, or as it is after 30 s: the
 * board draws at the browser's next frame (and again when its canvas is
 * resized), which a loaded machine gives late.
 */
async function cellPixelOnceDrawn(page, x, y, want) {
  const until = Date.now() + 30000;
  for (;;) {
    const got = await cellPixel(page, x, y);
    if (got.every((v, i) => v === want[i]) || Date.now() > until) return got;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The canvas pixel in the lower middle of cell (x, y), as [r, g, b]. */
async function cellPixel(page, x, y) {
  return page.evaluate(
    ([x, y]) => {
      const c = document.getElementById('board');
      const r = c.getBoundingClientRect();
      const at = window.__replayViewer.cellCenter(x, y);
      const dpr = c.width / r.width;
      const px = Math.floor((at.x - r.left) * dpr);
      const py = Math.floor((at.y - r.top + at.cell * 0.3) * dpr);
      const d = c.getContext('2d').getImageData(px, py, 1, 1).data;
      return [d[0], d[1], d[2]];
    },
    [x, y]
  );
}

const hex = (c) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));

test('a replay page scrubbed to a tick shows that tick\'s board and stderr', { timeout: 300000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snakepit-replay-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const bot = path.join(dir, 'bot.py');
  fs.writeFileSync(bot, BOT);
  // A name the fork command has to quote for the shell.
  const replay = path.join(dir, "Bob's game 1.jsonl");
  const html = path.join(dir, 'game.html');
  snakepit(['play', '--game', 'multisnake', '--seed', '6', '--ticks', '60',
    '--bot', 'python3 ' + bot, '--bot', 'python3 ' + bot, '--replay', replay]);
  snakepit(['replay', replay, '--html', html]);

  const recorded = fs.readFileSync(replay, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const header = recorded[0];
  const n = recorded.length - 1;
  assert.ok(n >= 12, 'the game lasts a while: ' + n + ' ticks');
  const printed = printedTicks(snakepit(['replay', replay]), header.map.length);
  assert.equal(printed.length, n + 1);
  const log = fs.readFileSync(replay + '.stderr.jsonl', 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const logAt = (tick, seat) => log.find((e) => e.t === tick && e.seat === seat);

  const b = await launch(t);
  const page = await b.newPage();
  const outside = [];
  page.on('request', (r) => {
    if (!r.url().startsWith('file:')) outside.push(r.url());
  });
  await page.goto('file://' + html);
  // The game plays on its own from the start.
  await page.waitForFunction(() => window.__replayViewer && window.__replayViewer.playing() && window.__replayViewer.tick() > 0);
  assert.equal(await page.locator('#ticks').textContent(), String(n));
  assert.equal(await page.locator('#seat-0 .seat-name').textContent(), 'python3 ' + bot);
  // Offline, there is no server to link back to.
  assert.equal(await page.locator('header.topbar').count(), 1, 'the site\'s look');
  assert.equal(await page.locator('header.topbar a').count(), 0);
  assert.equal((await page.locator('header.topbar').textContent()).trim().replace(/\s+/g, ' '), 'snakepit replay');

  // Scrub to a tick in the middle of the game.
  const k = Math.min(11, n - 1);
  await scrubTo(page, k);
  await page.waitForFunction((k) => window.__replayViewer.tick() === k, k);
  assert.equal(await page.locator('#tick').textContent(), String(k));
  assert.match(page.url(), new RegExp('#t=' + k + '$'));

  // The board: each seat's head is drawn where `replay` prints its letter,
  // in its colour lightened by a quarter as the live boards draw heads,
  // and the text view is `replay`'s board exactly.
  for (const [seat, letter] of [[0, 'A'], [1, 'B']]) {
    const y = printed[k].rows.findIndex((r) => r.includes(letter));
    if (y < 0) continue; // a dead seat shows '@'
    const x = printed[k].rows[y].indexOf(letter);
    const color = await page.evaluate((s) => window.__replayViewer.seatColor(s), seat);
    const head = hex(color).map((v) => Math.round(v + (255 - v) * 0.25));
    assert.deepEqual(await cellPixelOnceDrawn(page, x, y, head), head, 'head of seat ' + seat + ' at ' + x + ',' + y);
  }
  await page.locator('#show-text').check();
  assert.equal(await page.locator('#board-text').textContent(), printed[k].rows.join('\n'));
  assert.equal(await page.locator('#status').textContent(), printed[k].status);

  // Each seat's move and stderr at that tick.
  for (const seat of [0, 1]) {
    assert.equal(await page.locator(`#seat-${seat} .seat-move`).textContent(), recorded[k].m[seat]);
    const entry = logAt(k, seat);
    assert.ok(entry, 'the log has seat ' + seat + ' at tick ' + k);
    assert.ok(entry.stderr.includes('tick ' + k + ' seat ' + 'AB'[seat]), JSON.stringify(entry));
    assert.equal(await page.locator(`#seat-${seat} .seat-stderr`).textContent(), shownStderr(entry));
  }

  // The fork panel: the page shows the state after tick k, so the fork
  // replays ticks 1..k and the new bot plays from tick k + 1.
  const command = () => page.locator('#fork-command').textContent();
  const options = await page.locator('#fork-seat option').allTextContents();
  assert.deepEqual(options, ['A · ' + header.players[0], 'B · ' + header.players[1]]);
  assert.equal(await command(), 'snakepit replay ' + shellQuoted(replay) + ' --from-tick ' + (k + 1) + ' --bot 0=SPEC');
  await page.locator('#fork-seat').selectOption('1');
  // Typing into the bot field is typing: the space does not start playback.
  await page.locator('#fork-bot').pressSequentially('python3 my bot.py');
  assert.equal(await page.evaluate(() => window.__replayViewer.tick()), k);
  assert.ok((await command()).endsWith(' --from-tick ' + (k + 1) + " --bot '1=python3 my bot.py'"), await command());
  await page.locator('#fork-bot').fill('builtin:random');
  const forkCommand = await command();
  assert.equal(forkCommand, 'snakepit replay ' + shellQuoted(replay) + ' --from-tick ' + (k + 1) + ' --bot 1=builtin:random');
  // Copy puts it on the clipboard or, where the page may not, selects it.
  await page.locator('#fork-copy').click();
  // The page tries the clipboard first, which answers later.
  await page.waitForFunction(() => document.getElementById('fork-copied').textContent !== '');
  const copied = await page.locator('#fork-copied').textContent();
  if (copied !== 'copied') {
    assert.equal(copied, 'selected: press Ctrl+C to copy');
    assert.equal(await page.evaluate(() => window.getSelection().toString()), forkCommand);
  }

  // The command, run by the shell, forks the game: the first k ticks are
  // the recorded ones and seat 1 is the new bot's.
  const forked = path.join(dir, 'fork.jsonl');
  const line = forkCommand.replace(/^snakepit /, shellQuoted(BIN) + ' ') + ' --replay ' + shellQuoted(forked);
  execFileSync('sh', ['-c', line], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120000 });
  const fork = fs.readFileSync(forked, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(fork[0].players, [header.players[0], 'builtin:random']);
  assert.deepEqual(fork.slice(1, k + 1).map((r) => r.m), recorded.slice(1, k + 1).map((r) => r.m));
  assert.ok(fork.length > k + 1, 'the fork plays on after tick ' + k);

  // One step back with the keyboard shows the tick before, everywhere,
  // the fork command included.
  await page.locator('body').press('ArrowLeft');
  await page.waitForFunction((k) => window.__replayViewer.tick() === k - 1, k);
  assert.equal(await page.locator('#board-text').textContent(), printed[k - 1].rows.join('\n'));
  assert.equal(await page.locator('#seat-0 .seat-stderr').textContent(), shownStderr(logAt(k - 1, 0)));
  assert.ok((await command()).includes(' --from-tick ' + k + ' --bot 1=builtin:random'), await command());

  // Tick 3 holds markup on stderr: it shows as text and never runs.
  await scrubTo(page, 3);
  await page.waitForFunction(() => window.__replayViewer.tick() === 3);
  const third = await page.locator('#seat-0 .seat-stderr').textContent();
  assert.ok(third.split('\n').includes(EVIL), third);
  assert.equal(await page.evaluate(() => document.querySelectorAll('img, [onerror]').length), 0);

  // Play runs ticks forward; pause holds them.
  await page.locator('#speed').selectOption('20');
  await page.locator('body').press(' ');
  await page.waitForFunction(() => window.__replayViewer.tick() >= 6);
  await page.locator('body').press(' ');
  const held = await page.evaluate(() => window.__replayViewer.tick());
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => window.__replayViewer.tick()), held);

  // A link with #t=N opens at that tick.
  const linked = await b.newPage();
  await linked.goto('file://' + html + '#t=' + (k + 1));
  await linked.waitForFunction(() => window.__replayViewer && window.__replayViewer.tick() >= 0);
  assert.equal(await linked.evaluate(() => window.__replayViewer.tick()), k + 1);
  assert.equal(await linked.evaluate(() => window.__replayViewer.playing()), false, 'a link to a tick holds it');
  assert.equal(await linked.locator('#seat-1 .seat-stderr').textContent(), shownStderr(logAt(k + 1, 1)));

  assert.deepEqual(outside, [], 'the page loads nothing from the network');
  assert.deepEqual(b.problems.dialogs, []);
  assert.deepEqual(unexpectedErrors(b.problems), []);
});
