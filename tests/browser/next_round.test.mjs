// A person whose snake sleeps until the next SnakeBattle round sees when
// that round starts, counting down on their page; a newcomer whom every
// room would keep waiting long gets a room whose round starts at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serverWith, unexpectedErrors } from './helpers.mjs';

async function signUp(url, name) {
  const r = await fetch(url + '/api/register', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name }) });
  assert.equal(r.status, 201);
  const me = await r.json();
  return me.url.startsWith('http') ? me.url : url + me.url;
}

/** Waits until the configured room's first round has started. */
async function roundStarted(url) {
  for (;;) {
    const rooms = await (await fetch(url + '/api/rooms')).json();
    if (rooms.find((r) => r.name === 'snakebattle').starts_in_ms > 10000) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('a sleeping snake\'s page counts down to its round', { timeout: 300000 }, async (t) => {
  // Rounds of 300 ticks of 100 ms, and no room of their own for newcomers.
  const url = await serverWith(t, 'games = ["snakebattle"]\n[snakebattle]\ntick_ms = 100\n[limits]\narrival_wait_ms = 0\n');
  await roundStarted(url);
  const b = await launch(t);
  const page = await b.newPage();
  await page.goto(await signUp(url, 'sleeper'));
  await page.waitForSelector('#next-start:not(.hidden)', { timeout: 60000 });
  const first = await page.textContent('#next-start');
  const m = /starts in (\d+) s at most/.exec(first);
  assert.ok(m, first);
  assert.ok(Number(m[1]) > 0 && Number(m[1]) <= 31, first);
  await page.screenshot({ path: '/tmp/snakepit-next-round.png' });
  // It counts down.
  await page.waitForFunction((s) => {
    const n = /starts in (\d+) s/.exec(document.getElementById('next-start').textContent);
    return n && Number(n[1]) < s;
  }, Number(m[1]), { timeout: 60000 });
  assert.deepEqual(unexpectedErrors(b.problems), []);
});

test('a newcomer whom every round keeps waiting plays in a room of their own', { timeout: 300000 }, async (t) => {
  const url = await serverWith(t, 'games = ["snakebattle"]\n[snakebattle]\ntick_ms = 100\n');
  await roundStarted(url);
  const b = await launch(t);
  const page = await b.newPage();
  await page.goto(await signUp(url, 'hurried'));
  // The snake wakes within the new room's countdown.
  await page.waitForFunction(() => {
    const f = window.__snakepit && window.__snakepit.frame;
    const me = f && f.snakes.find((s) => s.name === 'hurried');
    return me && me.alive && !me.sleeping;
  }, null, { timeout: 60000 });
  const room = await page.evaluate(() => window.__snakepit.frame.room);
  assert.notEqual(room, 'snakebattle');
  assert.deepEqual(unexpectedErrors(b.problems), []);
});

test('a person who sits down during a duel watches it out and plays the next', { timeout: 300000 }, async (t) => {
  const url = await serverWith(t, 'games = ["duel"]\n[duel]\ntick_ms = 100\npause_ticks = 20\n');
  // Early in a game of the two built-in bots.
  for (;;) {
    const rooms = await (await fetch(url + '/api/rooms')).json();
    const duel = rooms.find((r) => r.name === 'duel');
    if (duel && duel.tick >= 3 && duel.starts_in_ms > 3000) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const r = await fetch(url + '/api/register', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'latecomer', game: 'duel' }) });
  const me = await r.json();
  const b = await launch(t);
  const page = await b.newPage();
  await page.goto(me.url.startsWith('http') ? me.url : url + me.url);
  await page.waitForSelector('#next-start:not(.hidden)', { timeout: 60000 });
  assert.match(await page.textContent('#next-start'), /You play from the next game: it starts in \d+ s at most\./);
  await page.screenshot({ path: '/tmp/snakepit-duel-next-game.png' });
  // The next game is the person's: the notice goes, and their snake is no bot's.
  await page.waitForFunction(() => {
    const f = window.__snakepit.frame;
    const mine = f && f.snakes.find((s) => s.name === 'latecomer');
    return f.phase === 'running' && mine && !mine.bot && document.getElementById('next-start').classList.contains('hidden');
  }, null, { timeout: 90000 });
  assert.deepEqual(unexpectedErrors(b.problems), []);
});

test('between two duels a person starts the next one with a key', { timeout: 300000 }, async (t) => {
  // A pause between games far longer than the test may run: only the key
  // can start the next game in time.
  const url = await serverWith(t, 'games = ["duel"]\n[duel]\ntick_ms = 50\npause_ticks = 1000000\n');
  for (;;) {
    const rooms = await (await fetch(url + '/api/rooms')).json();
    const duel = rooms.find((r) => r.name === 'duel');
    if (duel && duel.tick >= 3) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const r = await fetch(url + '/api/register', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'eager', game: 'duel' }) });
  const me = await r.json();
  const b = await launch(t);
  const page = await b.newPage();
  await page.goto(me.url.startsWith('http') ? me.url : url + me.url);
  // The game the bots play out ends, and its pause begins: the page says
  // when the next game starts and that a key starts it now.
  await page.waitForFunction(() => {
    const f = window.__snakepit.frame;
    return f && f.phase === 'over' && window.__snakepit.seat !== null;
  }, null, { timeout: 120000 });
  await page.waitForSelector('#next-start:not(.hidden)');
  assert.match(await page.textContent('#next-start'), /it starts in \d+ s at most\. Press an arrow key to start it now\./);
  const over = await page.evaluate(() => window.__snakepit.frame);
  assert.ok(over.starts_in_ms > 600000, 'the pause runs for minutes: ' + over.starts_in_ms + ' ms');
  await page.screenshot({ path: '/tmp/snakepit-duel-key-start.png' });
  await page.keyboard.press('ArrowUp');
  // The next game runs, with the person's own snake, long before the pause
  // would have ended.
  await page.waitForFunction((game) => {
    const f = window.__snakepit.frame;
    const mine = f && f.snakes.find((s) => s.name === 'eager');
    return f.phase === 'running' && f.round === game + 1 && mine && !mine.bot;
  }, over.round, { timeout: 90000 });
  assert.deepEqual(unexpectedErrors(b.problems), []);
});
