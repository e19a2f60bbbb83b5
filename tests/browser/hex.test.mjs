// Hex in the browser: the room page draws the field, and a player clones
// and jumps pieces with the mouse and the keyboard on their own page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, register, uniqueName, until, unexpectedErrors } from './helpers.mjs';

const KEY = { UP: 'ArrowUp', DOWN: 'ArrowDown', LEFT: 'ArrowLeft', RIGHT: 'ArrowRight' };

/** Waits until the page knows its seat and the latest frame shows one of its pieces. */
async function havePiece(page) {
  await page.waitForFunction(
    () => {
      const h = window.__snakepit;
      return !!h && !!h.frame && h.seat !== null && !h.frame.paused && h.frame.pieces.some((p) => p[2] === h.seat);
    },
    null,
    { timeout: 60000, polling: 20 }
  );
}

/**
 * One of my pieces with a legal move of the wanted kind, from the page's
 * latest frame, as `{tick, from: [x, y], target: {x, y, dir, jump}}`.
 */
function pickMove(page, jump) {
  return page.evaluate((jump) => {
    const h = window.__snakepit;
    const f = h.frame;
    if (!f || f.paused) return null;
    for (const p of f.pieces) {
      if (p[2] !== h.seat) continue;
      const target = window.Snakepit.hexTargets(f, p[0], p[1]).find((t) => t.jump === jump);
      if (target) return { tick: f.tick, from: [p[0], p[1]], target };
    }
    return null;
  }, jump);
}

/**
 * Waits for a move of the wanted kind. When the field is nearly full my
 * pieces may have no free cell next to them until the game restarts.
 */
async function nextMove(page, jump) {
  await havePiece(page);
  return until(() => pickMove(page, jump), { timeout: 60000, every: 50, what: 'a piece of mine that can ' + (jump ? 'jump' : 'clone') });
}

/** The page's state in a line, for diagnostics. */
function describe(page) {
  return page.evaluate(() => {
    const h = window.__snakepit;
    const f = h.frame;
    return JSON.stringify({
      tick: f && f.tick,
      seat: h.seat,
      paused: f && f.paused,
      mine: f && f.pieces.filter((p) => p[2] === h.seat),
      selected: h.selected,
      hint: document.getElementById('hex-hint').textContent,
    });
  });
}

/** The centre of a cell in page pixels, from the geometry the board draws with. */
function cellPoint(page, x, y) {
  return page.evaluate(([x, y]) => window.__snakepit.view.cellCenter(x, y), [x, y]);
}

/** Clicks my piece (unless it is selected already); true if the page selected it. */
async function clickPiece(page, from) {
  const already = await page.evaluate(() => window.__snakepit.selected);
  // A click on the selected piece would deselect it.
  if (already && already.x === from[0] && already.y === from[1]) return true;
  const at = await cellPoint(page, from[0], from[1]);
  await page.mouse.click(at.x, at.y);
  const sel = await page.evaluate(() => window.__snakepit.selected);
  return !!sel && sel.x === from[0] && sel.y === from[1];
}

/**
 * Waits for the first frame after `tick` in which the cell has a piece, or
 * until three ticks have passed; returns `{tick, owner}` for that frame.
 * Polls every animation frame, so that no frame of the 100 ms tick is missed.
 */
async function ownerAfter(page, tick, x, y) {
  const handle = await page.waitForFunction(
    ([t0, x, y]) => {
      const h = window.__snakepit;
      const f = h.frame;
      if (!f || f.tick <= t0) return null;
      const owner = window.Snakepit.hexOwner(f, x, y);
      if (owner !== null || f.tick > t0 + 3) return { tick: f.tick, owner, seat: h.seat, events: f.events };
      return null;
    },
    [tick, x, y],
    { timeout: 60000, polling: 'raf' }
  );
  return handle.jsonValue();
}

test('a Hex player clones a piece by clicking it and then a free cell next to it', { timeout: 300000 }, async (t) => {
  const b = await launch(t);
  const me = await register(uniqueName('hexer'), 'hex');
  assert.equal(me.game, 'hex');
  assert.match(me.url, /\/codenjoy-contest\/board\/player\/[^?]+\?code=.+/);
  const page = await b.newPage();
  await page.goto(me.url);
  await page.waitForFunction(() => window.__snakepit && window.__snakepit.player && window.__snakepit.frame, null, { timeout: 60000 });

  // The page shows the Hex controls, not the snake pad, and the Hex board string.
  const info = await page.evaluate(() => ({
    game: window.__snakepit.game,
    frameGame: window.__snakepit.frame.game,
    seat: window.__snakepit.seat,
    playerSeat: window.__snakepit.player.seat,
    hexControls: !document.getElementById('hex-controls').classList.contains('hidden'),
    pad: !document.getElementById('snake-controls').classList.contains('hidden'),
    board: document.getElementById('bot-board').textContent,
    size: window.__snakepit.frame.size,
    name: document.getElementById('me-name').textContent,
    room: document.getElementById('me-room').textContent,
  }));
  assert.equal(info.game, 'hex');
  assert.equal(info.frameGame, 'hex');
  assert.equal(info.seat, info.playerSeat);
  assert.ok(info.hexControls, 'the Hex controls are shown');
  assert.ok(!info.pad, 'the snake pad is hidden');
  assert.equal(info.name, me.name);
  assert.equal(info.room, 'hex');
  const rows = info.board.split('\n');
  assert.equal(rows.length, info.size);
  assert.ok(rows.every((r) => /^[☼ ☺☻♥♦♣♠•◘○◙♂♀]+$/u.test(r) && Array.from(r).length === info.size), 'rows of Hex glyphs');

  // Click one of my pieces, then a free cell next to it; a following frame
  // should show my new piece there. The piece may be captured first, or the
  // game may restart (when someone has no pieces or the board is full), so
  // try again with a fresh selection a few times.
  let clone = null;
  for (let attempt = 0; attempt < 10 && !clone; attempt++) {
    const move = await nextMove(page, false);
    if (!(await clickPiece(page, move.from))) {
      t.diagnostic('attempt ' + attempt + ': the click did not select ' + move.from + ': ' + (await describe(page)));
      continue;
    }
    // The selection shows the legal targets; ours is one of them.
    const marked = await page.evaluate(() => {
      const s = window.__snakepit.view.selection;
      return s ? s.targets.map((g) => g.x + ',' + g.y + (g.jump ? 'j' : 'c')) : [];
    });
    if (!marked.includes(move.target.x + ',' + move.target.y + 'c')) {
      t.diagnostic('attempt ' + attempt + ': ' + JSON.stringify(move.target) + ' is not among the marked ' + JSON.stringify(marked));
      continue;
    }
    const at = await cellPoint(page, move.target.x, move.target.y);
    const t0 = await page.evaluate(() => window.__snakepit.frame.tick);
    await page.mouse.click(at.x, at.y);
    const want = 'ACT(' + move.from[0] + ',' + move.from[1] + '),' + move.target.dir;
    const sent = await page.evaluate(() => window.__snakepit.sent.slice(-1)[0]);
    if (sent !== want) {
      // The frame changed between the clicks.
      t.diagnostic('attempt ' + attempt + ': sent ' + sent + ', not ' + want + '; ' + (await page.locator('#hex-hint').textContent()));
      continue;
    }
    const after = await ownerAfter(page, t0, move.target.x, move.target.y);
    // The server logged the command as coming from the page either way.
    const entry = await until(
      () => page.evaluate((cmd) => (window.__snakepit.player.log || []).find((a) => a.text === cmd && /from the page/.test(a.note)), want),
      { timeout: 60000, every: 50, what: 'the log entry for ' + want }
    );
    if (/not your piece/.test(entry.note)) {
      // Captured between the page's frame and the command's arrival.
      t.diagnostic('attempt ' + attempt + ': ' + entry.note);
      continue;
    }
    assert.equal(entry.note, 'from the page: clone [' + move.from[0] + ',' + move.from[1] + '] ' + move.target.dir);
    if (after.owner === after.seat) clone = { want, move, after };
    else t.diagnostic('attempt ' + attempt + ': the clone did not show (' + JSON.stringify(after) + '); trying again');
  }
  assert.ok(clone, 'a click on my piece and then on a free neighbour cloned it');

  // The page shows what it sent and the server's note on it.
  await page.waitForFunction(
    (cmd) => Array.from(document.querySelectorAll('#log tr td.text')).some((td) => td.textContent === cmd),
    clone.want,
    { timeout: 60000 }
  );
  assert.equal(await page.locator('#last-sent').textContent(), clone.want);
  await page.waitForFunction(() => /clone \[\d+,\d+\] (UP|DOWN|LEFT|RIGHT)/i.test(document.getElementById('last-note').textContent), null, {
    timeout: 60000,
  });

  // Keyboard: after selecting a piece, Shift+arrow jumps it.
  let jumped = null;
  for (let attempt = 0; attempt < 10 && !jumped; attempt++) {
    const move = await nextMove(page, true);
    if (!(await clickPiece(page, move.from))) {
      t.diagnostic('jump attempt ' + attempt + ': the click did not select ' + move.from);
      continue;
    }
    const before = await page.evaluate(() => window.__snakepit.sent.length);
    await page.keyboard.press('Shift+' + KEY[move.target.dir]);
    const sent = await page.evaluate((n) => window.__snakepit.sent.slice(n), before);
    const want = 'ACT(' + move.from[0] + ',' + move.from[1] + ',1),' + move.target.dir;
    if (sent.length !== 1 || sent[0] !== want) {
      // The target was taken meanwhile.
      t.diagnostic('jump attempt ' + attempt + ': sent ' + JSON.stringify(sent) + ', not ' + want + '; ' + (await page.locator('#hex-hint').textContent()));
      continue;
    }
    const entry = await until(
      () => page.evaluate((cmd) => (window.__snakepit.player.log || []).find((a) => a.text === cmd && /from the page/.test(a.note)), want),
      { timeout: 60000, every: 50, what: 'the log entry for ' + want }
    );
    if (/not your piece/.test(entry.note)) continue; // captured meanwhile
    assert.equal(entry.note, 'from the page: jump [' + move.from[0] + ',' + move.from[1] + '] ' + move.target.dir);
    jumped = want;
  }
  assert.ok(jumped, 'Shift+arrow sent a jump');

  // And a plain arrow clones.
  let cloned = null;
  for (let attempt = 0; attempt < 10 && !cloned; attempt++) {
    const move = await nextMove(page, false);
    if (!(await clickPiece(page, move.from))) continue;
    const before = await page.evaluate(() => window.__snakepit.sent.length);
    await page.keyboard.press(KEY[move.target.dir]);
    const sent = await page.evaluate((n) => window.__snakepit.sent.slice(n), before);
    if (sent[0] === 'ACT(' + move.from[0] + ',' + move.from[1] + '),' + move.target.dir) cloned = sent[0];
  }
  assert.ok(cloned, 'an arrow key sent a clone');

  // A screenshot with a piece selected and the mouse over one of its targets.
  await havePiece(page);
  const move = (await pickMove(page, false)) || (await pickMove(page, true));
  if (move && (await clickPiece(page, move.from))) {
    const at = await cellPoint(page, move.target.x, move.target.y);
    await page.mouse.move(at.x, at.y);
  }
  await page.waitForTimeout(60);
  await page.screenshot({ path: '/tmp/snakepit-hex-player.png' });
  assert.deepEqual(unexpectedErrors(b.problems), []);
  assert.deepEqual(b.problems.dialogs, []);
});

test('the room page draws a Hex room: pieces, players and their piece counts', { timeout: 300000 }, async (t) => {
  const b = await launch(t);
  const page = await b.newPage();
  await page.goto(BASE + '/room/hex');
  await page.waitForFunction(
    () => window.__snakepit && window.__snakepit.frame && window.__snakepit.frame.game === 'hex' && window.__snakepit.view.draws > 0,
    null,
    { timeout: 60000 }
  );
  // Wait for a frame with pieces (a restart can leave the field nearly empty).
  await page.waitForFunction(() => window.__snakepit.frame.pieces.length > 0, null, { timeout: 60000 });

  const panel = await page.evaluate(() => {
    const f = window.__snakepit.frame;
    const counts = {};
    for (const p of f.pieces) counts[p[2]] = (counts[p[2]] || 0) + 1;
    return {
      tick: f.tick,
      size: f.size,
      players: f.players.map((p) => ({ seat: p.seat, name: p.name, n: counts[p.seat] || 0 })),
      rows: Array.from(document.querySelectorAll('#players li[data-seat]')).map((li) => ({
        seat: Number(li.dataset.seat),
        name: li.querySelector('.pname').textContent,
        pieces: li.querySelector('.pieces').textContent,
        swatch: li.querySelector('.swatch').style.backgroundColor,
      })),
      phase: document.getElementById('phase').textContent,
      title: document.getElementById('room-title').textContent,
      canvas: { w: document.getElementById('board').width, h: document.getElementById('board').height },
    };
  });
  assert.equal(panel.title, 'hex');
  assert.match(panel.phase, /^(Hex · tick \d+|Paused · tick \d+)$/);
  assert.ok(panel.players.length >= 2, 'built-in bots play in the Hex room');
  assert.equal(panel.rows.length, panel.players.length);
  for (const p of panel.players) {
    const row = panel.rows.find((r) => r.seat === p.seat);
    assert.ok(row, 'a row for seat ' + p.seat);
    assert.equal(row.name, p.name);
    assert.equal(row.pieces, p.n + (p.n === 1 ? ' piece' : ' pieces'));
    assert.ok(row.swatch, 'a colour swatch for ' + p.name);
  }
  assert.ok(panel.canvas.w > 100 && panel.canvas.w === panel.canvas.h);

  // The picture changes as the bots play. A field where no one can move
  // stands still until the engine restarts it (`still_restart_ticks`, 30
  // ticks), so the wait allows for that.
  const png1 = await page.evaluate(() => document.getElementById('board').toDataURL('image/png'));
  await page.waitForFunction((t0) => window.__snakepit.frame.tick >= t0 + 5, panel.tick, { timeout: 60000 });
  await until(async () => (await page.evaluate(() => document.getElementById('board').toDataURL('image/png'))) !== png1, {
    timeout: 60000,
    every: 200,
    what: 'the board pixels to change',
  });

  await page.screenshot({ path: '/tmp/snakepit-hex-room.png' });
  assert.deepEqual(unexpectedErrors(b.problems), []);
  assert.deepEqual(b.problems.dialogs, []);
});

test('the lobby registers a Hex player when Hex is chosen', { timeout: 300000 }, async (t) => {
  const b = await launch(t);
  const lobby = await b.newPage();
  await lobby.goto(BASE + '/');
  // Both rooms are listed, each with its game.
  await lobby.waitForFunction(
    () => ['hex', 'snakebattle'].every((g) => document.querySelector('.room-card .badge.game[data-game="' + g + '"]')),
    null,
    { timeout: 60000 }
  );
  const name = uniqueName('lobbyhex');
  await lobby.check('input[name="game"][value="hex"]');
  await lobby.fill('#register-name', name);
  await lobby.click('#register-form button[type="submit"]');
  await lobby.waitForSelector('#register-result:not(.hidden)');
  assert.equal(await lobby.locator('#register-as').textContent(), name);
  assert.equal(await lobby.locator('#register-for').textContent(), 'Hex');
  const url = await lobby.locator('#register-url').getAttribute('href');
  const page = await b.newPage();
  await page.goto(url);
  await page.waitForFunction(() => window.__snakepit && window.__snakepit.player && window.__snakepit.frame, null, { timeout: 60000 });
  assert.equal(await page.evaluate(() => window.__snakepit.frame.game), 'hex');
  assert.equal(await page.evaluate(() => window.__snakepit.player.room), 'hex');
  assert.deepEqual(unexpectedErrors(b.problems), []);
});
