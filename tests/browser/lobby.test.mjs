// The lobby: registration answers one sign-up at a time, the seat badges
// say whether a player is online, and the how-to names the languages the
// player page's editor offers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, api, launch, register, serverWith, uniqueName, unexpectedErrors } from './helpers.mjs';

test('a failed sign-up hides the answer to the one before', { timeout: 300000 }, async (t) => {
  const b = await launch(t);
  const taken = await register(uniqueName('taken'));
  const page = await b.newPage();
  await page.goto(BASE + '/');
  const fresh = uniqueName('fresh');
  await page.fill('#register-name', fresh);
  await page.click('#register-form button[type="submit"]');
  await page.waitForSelector('#register-result:not(.hidden)');
  assert.equal(await page.textContent('#register-as'), fresh);

  await page.fill('#register-name', taken.name);
  await page.click('#register-form button[type="submit"]');
  await page.waitForSelector('#register-error:not(.hidden)');
  assert.equal(await page.isVisible('#register-result'), false, 'the earlier "Registered as" is gone');
  assert.deepEqual(unexpectedErrors(b.problems, [/status of 409/]), []);
});

test('a seated player without a bot is "offline", and the how-to lists the editor\'s languages', { timeout: 300000 }, async (t) => {
  const b = await launch(t);
  const me = await register(uniqueName('idle'));
  const mine = await b.newPage();
  await mine.goto(me.url);
  await mine.waitForFunction(() => window.__snakepit && window.__snakepit.player, null, { timeout: 60000 });

  const page = await b.newPage();
  await page.goto(BASE + '/');
  const seat = page.locator('.room-card .seats li', { hasText: me.name });
  await seat.waitFor({ timeout: 60000 });
  assert.equal(await seat.locator('.badge').textContent(), 'offline');

  const duelist = await register(uniqueName('langs'), 'duel');
  const code = await api('GET', '/api/code?user=' + encodeURIComponent(duelist.id) + '&code=' + encodeURIComponent(duelist.code));
  const howTo = await page.textContent('#register ~ .panel ol');
  const named = howTo.match(/save a program on your page \(([^;]+);/)[1];
  const words = code.data.langs.map((l) => l.label.split(' ')[0]);
  assert.equal(named, words.slice(0, -1).join(', ') + ' or ' + words[words.length - 1]);
  assert.deepEqual(unexpectedErrors(b.problems), []);
});

test('a contest with two games and closed registration: the lobby offers no sign-up and says why', { timeout: 300000 }, async (t) => {
  const url = await serverWith(t, 'games = ["duel", "hex"]\nregistration = "closed"\n');
  const b = await launch(t);
  const page = await b.newPage();
  await page.goto(url + '/');
  await page.locator('#register-closed').waitFor({ state: 'visible', timeout: 60000 });
  assert.ok(!(await page.locator('#register-form').isVisible()), 'no sign-up form');
  const offered = await page.evaluate(() =>
    Array.from(document.querySelectorAll('#register-form input[name="game"]'))
      .filter((r) => !r.closest('label').classList.contains('hidden'))
      .map((r) => r.value)
  );
  assert.deepEqual(offered, ['hex', 'duel']);
  // The rooms are the two games'.
  await page.locator('.room-card').nth(1).waitFor({ timeout: 60000 });
  const games = await page.evaluate(() => Array.from(document.querySelectorAll('.room-card .badge.game')).map((e) => e.dataset.game).sort());
  assert.deepEqual(games, ['duel', 'hex']);
  assert.deepEqual(unexpectedErrors(b.problems), []);
});
