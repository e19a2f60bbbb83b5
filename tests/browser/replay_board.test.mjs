// Replays are drawn by the live pages' board renderer (board.js): a game
// of each of the six kinds, written by `snakepit replay FILE --html OUT`,
// opened over file:// with nothing from the network, and the same file
// opened on the server's replays page, shows the renderer's frame with the
// snakes (or Hex's pieces) where the game has them, drawn on the canvas, a
// legend of the pieces, and the viewer's own snake when `?seat=N` names
// it. The playback controls drive the renderer. Screenshots of a live
// SnakeBattle room, the replay page of its round and the offline file of
// that round are saved side by side (the folder is printed). A duel's and
// a CodeCarrots board fill the space they have at 1280x800.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASE, launch, serverWith, unexpectedErrors, waitForPage } from './helpers.mjs';

const BIN = process.env.SNAKEPIT_BIN;
if (!BIN) throw new Error('SNAKEPIT_BIN is not set: run the tests through scripts/browser-tests.sh');

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** Where the screenshots go: target/screenshots unless said otherwise. */
const SHOTS = process.env.SNAKEPIT_SCREENSHOTS || path.resolve(HERE, '../../target/screenshots');

const GAMES = ['snakebattle', 'battlesnake', 'hex', 'carrots', 'duel', 'multisnake'];
const TICKS = 40;
/** The tick the pages are opened at: the game is under way by then. */
const AT = 20;

function snakepit(args) {
  return execFileSync(BIN, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Writes a game of `game` between two greedy bots (who last the 40 ticks), its replay and its page. */
function record(dir, game) {
  const file = path.join(dir, game + '.jsonl');
  const html = path.join(dir, game + '.html');
  snakepit(['play', '--game', game, '--seed', '3', '--ticks', String(TICKS), '--bot', 'builtin:greedy', '--bot', 'builtin:greedy', '--replay', file]);
  snakepit(['replay', file, '--html', html]);
  return { file, html };
}

/**
 * What the renderer shows at the page's tick: its frame's game, snakes
 * (alive, with their heads) and pieces, how often it drew, the legend's
 * items, and the canvas pixel at the centre of each alive head (or piece).
 */
async function shown(page) {
  return page.evaluate(async () => {
    // A canvas that was just resized is blank until the renderer's next
    // animation frame: sample after two.
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const v = window.__replayViewer;
    const f = v.frame();
    const canvas = document.getElementById('board');
    const r = canvas.getBoundingClientRect();
    const dpr = canvas.width / r.width;
    const ctx = canvas.getContext('2d');
    const pixel = (x, y) => {
      const at = v.cellCenter(x, y);
      const d = ctx.getImageData(Math.floor((at.x - r.left) * dpr), Math.floor((at.y - r.top) * dpr), 1, 1).data;
      return [d[0], d[1], d[2]];
    };
    const cells = f.game === 'hex' ? f.pieces.map((p) => [p[0], p[1], p[2]]) : f.snakes.filter((s) => s.alive && !s.sleeping && s.body.length).map((s) => [s.body[0][0], s.body[0][1], s.seat]);
    return {
      game: f.game,
      tick: f.tick,
      ticks: v.ticks,
      snakes: f.snakes.map((s) => ({ seat: s.seat, alive: s.alive, body: s.body })),
      pieces: f.pieces,
      draws: v.draws(),
      mySeat: v.mySeat,
      legend: Array.from(document.querySelectorAll('#legend li')).map((li) => ({ text: li.textContent, icon: !!li.querySelector('canvas') })),
      drawn: cells.map(([x, y, seat]) => ({ x, y, seat, rgb: pixel(x, y) })),
      rows: v.rows(),
    };
  });
}

/** Checks what `shown` saw for a game of `game` at tick `AT`. */
function checkShown(s, game, mine) {
  assert.equal(s.game, game);
  assert.equal(s.tick, AT);
  assert.equal(s.ticks, TICKS, game + ': every tick is in the page');
  assert.ok(s.draws > 0, game + ': the renderer drew');
  if (game === 'hex') {
    assert.ok(s.pieces.length >= 2, 'hex pieces: ' + JSON.stringify(s.pieces));
    // Each piece lies where the text view has a seat's glyph.
    for (const [x, y] of s.pieces) assert.ok(!' ☼'.includes(s.rows[y][x]), 'hex piece at ' + x + ',' + y + ': ' + JSON.stringify(s.rows[y][x]));
  } else {
    assert.ok(s.snakes.some((x) => x.alive && x.body.length), game + ' snakes: ' + JSON.stringify(s.snakes));
    // The games whose text view names heads by seat letters agree with the frame.
    if (game !== 'snakebattle' && game !== 'multisnake') {
      for (const sn of s.snakes.filter((x) => x.alive)) {
        const [x, y] = sn.body[0];
        assert.equal(s.rows[y][x], String.fromCharCode(65 + sn.seat), game + ': head of seat ' + sn.seat);
      }
    }
  }
  // Heads and pieces are drawn in their seat's colour, not left as the
  // dark board: the brightest channel of every seat colour is above 140.
  assert.ok(s.drawn.length > 0, game + ': something to look at');
  for (const d of s.drawn) assert.ok(Math.max(...d.rgb) > 140, game + ': seat ' + d.seat + ' at ' + d.x + ',' + d.y + ' is drawn: ' + d.rgb);
  assert.ok(s.legend.length >= 2 && s.legend.every((i) => i.icon && i.text), game + ' legend: ' + JSON.stringify(s.legend));
  assert.equal(s.mySeat, mine);
  const own = game === 'hex' ? 'your piece' : 'your snake';
  assert.equal(s.legend.some((i) => i.text.includes(own)), mine !== null, game + ' legend names one\'s own ' + (game === 'hex' ? 'pieces' : 'snake'));
}

test('every game kind replays with the live pages\' renderer, offline and on the server', { timeout: 600000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snakepit-board-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.mkdirSync(SHOTS, { recursive: true });
  const b = await launch(t);
  const page = await b.newPage();
  const outside = [];
  page.on('request', (r) => {
    if (!r.url().startsWith('file:')) outside.push(r.url());
  });
  const served = await b.newPage();
  for (const game of GAMES) {
    const { file, html } = record(dir, game);
    // Offline, as seat 0's owner.
    await page.goto('file://' + html + '?seat=0#t=' + AT);
    await page.waitForFunction(() => window.__replayViewer && window.__replayViewer.draws() > 0);
    checkShown(await shown(page), game, 0);
    await page.screenshot({ path: path.join(SHOTS, 'replay-file-' + game + '.png') });

    // The same file on the server's replays page.
    await served.goto(BASE + '/replays');
    await served.setInputFiles('#open-file', file);
    await served.click('#open-go');
    await waitForPage(served, BASE + '/replays/open');
    await served.waitForFunction(() => window.__replayViewer && window.__replayViewer.draws() > 0);
    await served.locator('#scrub').evaluate((el, v) => {
      el.value = String(v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, AT);
    await served.waitForFunction((at) => window.__replayViewer.frame().tick === at, AT);
    checkShown(await shown(served), game, null);
  }
  assert.deepEqual(outside, [], 'the offline pages load nothing from the network');
  assert.deepEqual(unexpectedErrors(b.problems), []);
});

test('the replay controls drive the renderer', { timeout: 300000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snakepit-controls-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const { html } = record(dir, 'snakebattle');
  const b = await launch(t);
  const page = await b.newPage();
  await page.goto('file://' + html);
  const v = (expr) => page.evaluate(expr);
  const frameTick = () => v(() => window.__replayViewer.frame().tick);
  // It opens playing, and the renderer follows.
  await page.waitForFunction(() => window.__replayViewer && window.__replayViewer.playing() && window.__replayViewer.frame().tick > 0);
  await page.click('#play');
  assert.equal(await v(() => window.__replayViewer.playing()), false);
  const held = await frameTick();
  await page.waitForTimeout(300);
  assert.equal(await frameTick(), held, 'paused holds the tick');

  await page.click('#first');
  assert.equal(await frameTick(), 0);
  await page.click('#forward');
  assert.equal(await frameTick(), 1);
  // One tick on, the snakes slide there as on the live pages; a jump is
  // drawn at once.
  assert.ok((await v(() => window.__replayViewer.slideMs())) > 0, 'a step slides');
  await page.locator('body').press('ArrowRight');
  assert.equal(await frameTick(), 2);
  await page.locator('body').press('Shift+ArrowRight');
  assert.equal(await frameTick(), 12);
  await page.click('#back');
  assert.equal(await frameTick(), 11);
  await page.locator('body').press('End');
  const n = await v(() => window.__replayViewer.ticks);
  assert.equal(await frameTick(), n);
  assert.equal(await v(() => window.__replayViewer.slideMs()), 0, 'a jump does not slide');
  await page.locator('body').press('Home');
  assert.equal(await frameTick(), 0);
  await page.locator('#scrub').evaluate((el) => {
    el.value = '7';
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
  assert.equal(await frameTick(), 7);
  assert.equal(await page.locator('#tick').textContent(), '7');

  // The speed sets how long a tick's move slides.
  await page.locator('#speed').selectOption('50');
  await page.click('#forward');
  assert.equal(await v(() => window.__replayViewer.frame().tick_ms), 20);
  // Space plays from there, at that speed, to the end.
  const before = await v(() => window.__replayViewer.draws());
  await page.locator('body').press(' ');
  await page.waitForFunction((n) => window.__replayViewer.frame().tick === n && !window.__replayViewer.playing(), n);
  assert.ok((await v(() => window.__replayViewer.draws())) > before, 'the renderer drew the ticks it played');
  assert.deepEqual(unexpectedErrors(b.problems), []);
});

/**
 * How much of the space it has the board takes on `page`: the canvas's
 * size, the width of the stage it sits in, and the height it could have
 * (the window's, less what lies above the canvas and between it and the
 * bottom of the playback controls, which stay in view).
 */
async function boardFill(page) {
  return page.evaluate(async () => {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    window.scrollTo(0, 0);
    const c = document.getElementById('board').getBoundingClientRect();
    const wrap = document.getElementById('board-wrap');
    const ws = getComputedStyle(wrap);
    const width = wrap.clientWidth - parseFloat(ws.paddingLeft) - parseFloat(ws.paddingRight);
    const controls = document.querySelector('.controls').getBoundingClientRect();
    const height = innerHeight - c.top - (controls.bottom - c.bottom);
    const f = window.__replayViewer.frame();
    return { w: c.width, h: c.height, width, height, controlsBottom: controls.bottom, innerHeight, cols: f.width, rows: f.height };
  });
}

/** The board fills the width or the height it has, in its own shape. */
function checkFill(m, what) {
  const used = Math.max(m.w / m.width, m.h / m.height);
  assert.ok(used >= 0.8, what + ': the board uses ' + Math.round(used * 100) + '% of the space it has: ' + JSON.stringify(m));
  assert.ok(m.w <= m.width + 1 && m.h <= m.height + 1, what + ': the board fits: ' + JSON.stringify(m));
  assert.ok(m.controlsBottom <= m.innerHeight, what + ': the controls stay in view: ' + JSON.stringify(m));
  // No band: the canvas has the board's shape.
  assert.ok(Math.abs(m.w / m.h - m.cols / m.rows) < 0.02, what + ': the canvas has the board\'s shape: ' + JSON.stringify(m));
}

test('a duel and a CodeCarrots board fill the space they have, on the server and offline', { timeout: 300000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snakepit-fill-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.mkdirSync(SHOTS, { recursive: true });
  const b = await launch(t);
  const page = await b.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  for (const [game, cols, rows] of [['duel', null, null], ['carrots', 120, 80]]) {
    const { file, html } = record(dir, game);
    // On the server, with the site's bar above it.
    await page.goto(BASE + '/replays');
    await page.setInputFiles('#open-file', file);
    await page.click('#open-go');
    await waitForPage(page, BASE + '/replays/open');
    await page.waitForFunction(() => window.__replayViewer && window.__replayViewer.draws() > 0);
    const served = await boardFill(page);
    if (cols) assert.deepEqual([served.cols, served.rows], [cols, rows], game + ' board');
    checkFill(served, game + ' on the server');
    await page.screenshot({ path: path.join(SHOTS, 'replay-fill-' + game + '-server.png') });
    // On a phone the page is no wider than the screen, the site's links
    // all in sight, as on the site's other pages.
    await page.setViewportSize({ width: 375, height: 800 });
    const phone = await page.evaluate(async () => {
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const cut = Array.from(document.querySelectorAll('.topbar nav a')).filter((a) => a.getBoundingClientRect().right > innerWidth + 0.5);
      return { scroll: document.documentElement.scrollWidth, inner: innerWidth, links: document.querySelectorAll('.topbar nav a').length, cut: cut.map((a) => a.textContent) };
    });
    assert.ok(phone.scroll <= phone.inner && phone.links === 4 && phone.cut.length === 0, game + ' on a phone: ' + JSON.stringify(phone));
    await page.setViewportSize({ width: 1280, height: 800 });
    // Offline, with its own bar.
    await page.goto('file://' + html);
    await page.waitForFunction(() => window.__replayViewer && window.__replayViewer.draws() > 0);
    checkFill(await boardFill(page), game + ' offline');
    await page.screenshot({ path: path.join(SHOTS, 'replay-fill-' + game + '-file.png') });
  }
  assert.deepEqual(unexpectedErrors(b.problems), []);
});

const SB_CONFIG = `games = ["snakebattle"]
[snakebattle]
tick_ms = 150
[snakebattle.settings]
round_ticks = "60"
countdown_ticks = "2"
`;

test('a live room, its replay page and its --html file side by side', { timeout: 300000 }, async (t) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snakepit-side-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const url = await serverWith(t, SB_CONFIG);
  const b = await launch(t);
  // A person plays: their page is the live room as its owner sees it.
  const r = await fetch(url + '/api/register', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'side-by-side' }) });
  assert.equal(r.status, 201);
  const me = await r.json();
  const live = await b.newPage();
  await live.goto(me.url.startsWith('http') ? me.url : url + me.url);
  // Mid-round, with the person's snake moving.
  await live.waitForFunction(() => {
    const h = window.__snakepit;
    const f = h && h.frame;
    const mine = f && h.seat !== null && f.snakes.find((s) => s.seat === h.seat);
    return f && f.phase === 'running' && f.phase_ticks >= 5 && mine && mine.alive && !mine.sleeping;
  }, null, { timeout: 180000 });
  const games = () => fetch(url + '/api/replays?player=' + encodeURIComponent(me.id) + '&limit=5').then((x) => x.json());
  // The rounds kept before this one ended: the next one kept is this one.
  const earlier = new Set((await games()).map((g) => g.id));
  const seen = await live.evaluate(() => ({ round: window.__snakepit.frame.round, at: window.__snakepit.frame.phase_ticks, seat: window.__snakepit.seat }));
  await live.waitForTimeout(120);
  const liveShot = path.join(SHOTS, 'side-live-room.png');
  await live.screenshot({ path: liveShot });
  assert.equal(await live.locator('#legend li').count() > 0, true, 'the live page has the legend');

  // The round ends and is kept: its replay page, as the person's "your
  // games" links it.
  const game = await (async () => {
    for (;;) {
      const fresh = (await games()).filter((g) => !earlier.has(g.id));
      if (fresh.length) return fresh[fresh.length - 1];
      await new Promise((res) => setTimeout(res, 200));
    }
  })();
  const seat = game.players.indexOf(me.id);
  assert.ok(seat >= 0, 'the person played the kept round');
  const replay = await b.newPage();
  await replay.goto(url + '/replays/' + game.id + '?seat=' + seat + '#t=' + seen.at);
  await replay.waitForFunction(() => window.__replayViewer && window.__replayViewer.draws() > 0);
  assert.equal(await replay.evaluate(() => window.__replayViewer.mySeat), seat);
  await replay.waitForTimeout(300);
  const pageShot = path.join(SHOTS, 'side-replay-page.png');
  await replay.screenshot({ path: pageShot });

  // The same round as a file, and its offline page.
  const text = await (await fetch(url + '/api/replays/' + game.id + '/file')).text();
  const file = path.join(dir, 'round.jsonl');
  fs.writeFileSync(file, text);
  const html = path.join(SHOTS, 'side-replay-file.html');
  snakepit(['replay', file, '--html', html]);
  const offline = await b.newPage();
  await offline.goto('file://' + html + '?seat=' + seat + '#t=' + seen.at);
  await offline.waitForFunction(() => window.__replayViewer && window.__replayViewer.draws() > 0);
  // One renderer: the file and the server's page draw the same frame.
  const frameOf = (p) => p.evaluate(() => {
    const f = window.__replayViewer.frame();
    return { tick: f.tick, cells: f.cells, snakes: f.snakes.map((s) => [s.seat, s.alive, s.body]) };
  });
  assert.deepEqual(await frameOf(offline), await frameOf(replay));
  await offline.waitForTimeout(300);
  const fileShot = path.join(SHOTS, 'side-replay-file.png');
  await offline.screenshot({ path: fileShot });

  // The three side by side, in one picture.
  const board = path.join(SHOTS, 'side-by-side.html');
  const cell = (title, png) => `<figure><figcaption>${title}</figcaption><img src="${path.basename(png)}"></figure>`;
  fs.writeFileSync(
    board,
    `<!doctype html><meta charset="utf-8"><style>body{margin:0;background:#070a10;color:#e5e7eb;font:600 22px system-ui;display:flex;gap:12px;padding:12px}figure{margin:0;flex:1}img{width:100%;border:1px solid #334155}figcaption{margin:4px 0 8px}</style>` +
      cell('live room (player page), round ' + seen.round + ' tick ' + seen.at, liveShot) +
      cell('replay page /replays/' + game.id, pageShot) +
      cell('snakepit replay --html, opened offline', fileShot)
  );
  const side = await b.newPage();
  await side.setViewportSize({ width: 2400, height: 700 });
  await side.goto('file://' + board);
  await side.waitForFunction(() => Array.from(document.images).every((i) => i.complete && i.naturalWidth > 0));
  await side.screenshot({ path: path.join(SHOTS, 'side-by-side.png'), fullPage: true });
  console.log('# screenshots in ' + SHOTS + ' (side-by-side.png: live room, replay page, --html file)');
  assert.deepEqual(unexpectedErrors(b.problems), []);
});
