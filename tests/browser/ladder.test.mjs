// The ladder on the leaderboard page: two duel players save programs, the
// server (started with `--ladder duel` by scripts/browser-tests.sh) pairs
// them and rates their games; the duel leaderboard shows both with their
// ratings and a letter per game that links to the game's replay page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASE, api, launch, register, uniqueName, until, unexpectedErrors } from './helpers.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('the ladder lists rated programs with links to their games', { timeout: 300000 }, async (t) => {
  const source = fs.readFileSync(path.join(ROOT, 'starters/duel/python/bot.py'), 'utf8');
  const players = [];
  for (const prefix of ['lad-a', 'lad-b']) {
    const p = await register(uniqueName(prefix), 'duel');
    const r = await api('POST', '/api/code', { user: p.id, code: p.code, lang: 'python', name: 'starter', source });
    assert.equal(r.status, 200, JSON.stringify(r.data));
    players.push(p);
  }
  await until(
    async () => {
      const r = await api('GET', '/api/ratings?game=duel');
      const mine = r.data.filter((x) => players.some((p) => p.id === x.player_id));
      return mine.length === 2 && mine.every((x) => x.games >= 1 && x.recent.length >= 1);
    },
    { timeout: 120000, every: 500, what: 'both programs rated on /api/ratings' }
  );

  const b = await launch(t);
  const page = await b.newPage();
  await page.goto(BASE + '/leaderboard?game=duel');
  await page.waitForSelector('#ladder:not(.hidden)');
  for (const p of players) {
    await page.waitForSelector(`#ladder-body tr[data-player="${p.id}"] a.result`);
  }
  const row = page.locator(`#ladder-body tr[data-player="${players[0].id}"]`);
  const cells = await row.locator('td').allTextContents();
  assert.equal(cells[1], players[0].name);
  assert.match(cells[2], /^-?\d+\.\d ± \d+\.\d$/, 'rating ± 2σ');
  const link = row.locator('a.result').first();
  assert.match(await link.textContent(), /^[WDL]$/);
  const href = await link.getAttribute('href');
  assert.match(href, /^\/replays\/\d+$/);

  // The link's target is the replay viewer on that game.
  const viewer = await b.newPage();
  const res = await viewer.goto(BASE + href);
  assert.equal(res.status(), 200);
  await viewer.waitForSelector('canvas#board');
  const text = await viewer.locator('body').textContent();
  assert.ok(text.includes(players[0].name), 'the viewer names the players');
  assert.deepEqual(unexpectedErrors(b.problems), []);
});
