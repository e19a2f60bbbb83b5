// Every room keeps its games: a SnakeBattle room's page lists its last
// rounds once one has ended, each opening in the replay viewer, and a Hex
// room's its last fields; a player who played a round finds it under
// "Your games" on their page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serverWith, unexpectedErrors } from './helpers.mjs';

const CONFIG = `games = ["snakebattle", "hex"]
[snakebattle]
tick_ms = 20
[snakebattle.settings]
round_ticks = "40"
countdown_ticks = "2"
[hex]
tick_ms = 20
`;

test('rooms list their last rounds and fields, and a player finds theirs', { timeout: 120000 }, async (t) => {
  const url = await serverWith(t, CONFIG);
  const b = await launch(t);
  const page = await b.newPage();

  // A person signs up for SnakeBattle and keeps their page open: their
  // snake plays rounds (it goes straight on without keys).
  const r = await fetch(url + '/api/register', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'rounds-fan' }) });
  assert.equal(r.status, 201);
  const me = await r.json();
  const mine = await b.newPage();
  await mine.goto(me.url.startsWith('http') ? me.url : url + me.url);

  await page.goto(url + '/room/snakebattle');
  await page.waitForSelector('#games-panel:not(.hidden) a.game-link', { timeout: 60000 });
  assert.equal(await page.textContent('#games-title'), 'Last rounds');
  await page.screenshot({ path: '/tmp/snakepit-room-last-rounds.png' });
  const href = await page.locator('#games a.game-link').first().getAttribute('href');
  assert.match(href, /^\/replays\/\d+$/);
  // The list is drawn again as rounds end: the link is followed by its address.
  await page.goto(url + href);
  await page.waitForSelector('canvas#board');
  assert.match(await page.locator('body').textContent(), /snakebattle|SnakeBattle/);

  await page.goto(url + '/room/hex');
  await page.waitForSelector('#games-panel:not(.hidden) a.game-link', { timeout: 90000 });
  assert.equal(await page.textContent('#games-title'), 'Last fields');

  await mine.waitForSelector('#games-panel:not(.hidden) a.game-link', { timeout: 60000 });
  const link = await mine.locator('#games a.game-link').first().getAttribute('href');
  assert.match(link, /^\/replays\/\d+\?player=/);
  assert.deepEqual(unexpectedErrors(b.problems), []);
});
