// A room's finished games and "fork from here" on the server: the duel
// room's page lists its kept games; one opens in the replay viewer, which
// is scrubbed to a tick and asked to continue the game from there with
// another bot in one seat. The server's own queue worker plays the fork,
// and the page moves on to the new game's replay, which names that bot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, api, launch, until, unexpectedErrors, waitForPage } from './helpers.mjs';

async function scrubTo(page, t) {
  await page.locator('#scrub').evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, t);
}

test('a kept duel is forked from a tick and the fork is played', { timeout: 300000 }, async (t) => {
  const b = await launch(t);
  const page = await b.newPage();
  await page.goto(BASE + '/room/duel');
  // Games of built-in bots end within seconds at the suite's tick.
  const link = page.locator('#games a.game-link').first();
  await link.waitFor({ timeout: 90000 });
  const href = await link.getAttribute('href');
  const original = Number(href.match(/^\/replays\/(\d+)$/)[1]);
  const kept = await api('GET', '/api/replays?origin=duel&limit=50');
  const game = kept.data.find((g) => g.id === original);
  assert.ok(game, 'the link is one of the room\'s kept games');
  // The list names how the game ended by the seats' names.
  const names = game.result.labels;
  assert.equal(names.length, 2, JSON.stringify(game.result));
  const verdict = (await link.textContent()).trim();
  const winners = names.filter((_, i) => game.result.places[i] === 1);
  const expected = winners.length === 2 ? 'draw' : 'won by ' + winners[0];
  assert.equal(verdict, expected, JSON.stringify(game.result));
  await link.click();
  await waitForPage(page, BASE + href);
  await page.waitForSelector('canvas#board');

  const tick = Math.min(3, game.result.ticks - 1);
  await scrubTo(page, tick);
  await page.selectOption('#fork-seat', '0');
  await page.selectOption('#fork-bot', 'builtin:random');
  await page.click('#fork-go');
  // The page follows the queued game and opens its replay when done.
  await page.waitForURL(/\/replays\/\d+#t=\d+$/, { timeout: 90000, waitUntil: 'load' });
  assert.equal(new URL(page.url()).hash, '#t=' + tick, 'the fork opens at the tick it parts from');
  await until(async () => Number(new URL(page.url()).pathname.split('/').pop()) !== original, {
    timeout: 90000,
    what: 'the page to open the forked game',
  });
  const forked = Number(new URL(page.url()).pathname.split('/').pop());
  await page.waitForSelector('canvas#board');
  const text = await page.locator('body').textContent();
  assert.ok(text.includes('builtin:random'), 'the fork names the bot that took the seat');

  // The fork is the kept game up to the chosen tick, then the new bot's.
  const lines = async (id) => (await (await fetch(BASE + '/api/replays/' + id + '/file')).text()).split('\n');
  const [old, fresh] = [await lines(original), await lines(forked)];
  assert.deepEqual(fresh.slice(1, 1 + tick), old.slice(1, 1 + tick), 'ticks up to the fork are played again');
  assert.equal(JSON.parse(fresh[0]).players[0], 'builtin:random');
  // The seat nobody touched keeps its kind of bot (a room names its bots NAME-SEAT).
  const kept1 = JSON.parse(old[0]).players[1];
  const base = kept1.replace(/^builtin:/, '').replace(/-\d+$/, '');
  if (['greedy', 'safe', 'random'].includes(base)) assert.equal(JSON.parse(fresh[0]).players[1], 'builtin:' + base, kept1);
  assert.deepEqual(unexpectedErrors(b.problems), []);
});
