// Names are text: a player named like an HTML tag shows up literally on
// every page and never runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, ADMIN_TOKEN, api, launch, register, until, unexpectedErrors } from './helpers.mjs';

const EVIL = '<img src=x onerror=alert(1)>';

async function noMarkup(page) {
  return page.evaluate(() => document.querySelectorAll('img, [onerror]').length);
}

test('a player named <img src=x onerror=alert(1)> appears as literal text', { timeout: 300000 }, async (t) => {
  const b = await launch(t);
  let me;
  try {
    me = await register(EVIL);
  } catch (e) {
    // A rerun against the same database: find the existing player.
    const r = await api('GET', '/api/admin/players', undefined, ADMIN_TOKEN);
    me = r.data.find((p) => p.name === EVIL);
    assert.ok(me, 'the player exists: ' + e.message);
  }
  assert.equal(me.name, EVIL);

  // The player page: title, name, player list.
  const player = await b.newPage();
  await player.goto(me.url);
  await player.waitForFunction(() => window.__snakepit && window.__snakepit.player && window.__snakepit.frame, null, { timeout: 60000 });
  await player.waitForFunction(
    (name) => Array.from(document.querySelectorAll('#players .pname')).some((e) => e.textContent === name),
    EVIL,
    { timeout: 60000 }
  );
  assert.equal(await player.locator('#me-name').textContent(), EVIL);
  assert.equal(await player.locator('#player-title').textContent(), EVIL);
  assert.equal(await noMarkup(player), 0);

  // The lobby's room card lists the seat by name.
  const lobby = await b.newPage();
  await lobby.goto(BASE + '/');
  await lobby.waitForFunction(
    (name) => Array.from(document.querySelectorAll('.seats .name')).some((e) => e.textContent === name),
    EVIL,
    { timeout: 60000 }
  );
  assert.equal(await noMarkup(lobby), 0);

  // The lobby's registration box shows the name as text too; this one
  // plays Hex, chosen in the form.
  await lobby.check('input[name="game"][value="hex"]');
  await lobby.fill('#register-name', EVIL + '!');
  await lobby.click('#register-form button[type="submit"]');
  await lobby.waitForSelector('#register-result:not(.hidden)');
  assert.equal(await lobby.locator('#register-as').textContent(), EVIL + '!');
  assert.equal(await lobby.locator('#register-for').textContent(), 'Hex');
  const hexUrl = await lobby.locator('#register-url').getAttribute('href');
  assert.match(hexUrl, /^http:\/\/127\.0\.0\.1:\d+\/codenjoy-contest\/board\/player\/[^?]+\?code=/);
  assert.equal(await noMarkup(lobby), 0);

  // The Hex player's page and the Hex room page show the name as text.
  const hexPlayer = await b.newPage();
  await hexPlayer.goto(hexUrl);
  await hexPlayer.waitForFunction(
    (name) =>
      window.__snakepit &&
      window.__snakepit.frame &&
      window.__snakepit.frame.game === 'hex' &&
      Array.from(document.querySelectorAll('#players .pname')).some((e) => e.textContent === name),
    EVIL + '!',
    { timeout: 60000 }
  );
  assert.equal(await hexPlayer.locator('#me-name').textContent(), EVIL + '!');
  assert.equal(await noMarkup(hexPlayer), 0);
  const hexRoom = await b.newPage();
  await hexRoom.goto(BASE + '/room/hex');
  await hexRoom.waitForFunction(
    (name) => Array.from(document.querySelectorAll('#players .pname')).some((e) => e.textContent === name),
    EVIL + '!',
    { timeout: 60000 }
  );
  assert.equal(await noMarkup(hexRoom), 0);
  await lobby.reload();
  await lobby.waitForFunction(
    (name) => Array.from(document.querySelectorAll('.room-card[data-room="hex"] .seats .name')).some((e) => e.textContent === name),
    EVIL + '!',
    { timeout: 60000 }
  );
  assert.equal(await noMarkup(lobby), 0);

  // The room page.
  const room = await b.newPage();
  await room.goto(BASE + '/room/' + encodeURIComponent((await player.evaluate(() => window.__snakepit.player.room))));
  await room.waitForFunction(
    (name) => Array.from(document.querySelectorAll('#players .pname')).some((e) => e.textContent === name),
    EVIL,
    { timeout: 60000 }
  );
  assert.equal(await noMarkup(room), 0);

  // The leaderboard, once the player has a row (see leaderboard.test.mjs).
  await until(
    async () => (await api('GET', '/api/leaderboard?game=snakebattle')).data.some((r) => r.player_id === me.id),
    { timeout: 120000, every: 500, what: 'a leaderboard row' }
  );
  const lb = await b.newPage();
  await lb.goto(BASE + '/leaderboard');
  await lb.waitForFunction(
    (name) => Array.from(document.querySelectorAll('#lb-body td.name-cell')).some((e) => e.textContent === name),
    EVIL,
    { timeout: 60000 }
  );
  assert.equal(await noMarkup(lb), 0);

  // The admin page.
  const admin = await b.newPage();
  await admin.goto(BASE + '/admin');
  await admin.fill('#login-token', ADMIN_TOKEN);
  await admin.click('#login-form button');
  await admin.waitForFunction(
    (name) => Array.from(document.querySelectorAll('#players-body td.name-cell')).some((e) => e.textContent === name),
    EVIL,
    { timeout: 60000 }
  );
  assert.equal(await noMarkup(admin), 0);

  await player.waitForTimeout(500);
  assert.deepEqual(b.problems.dialogs, [], 'no dialog fired');
  assert.deepEqual(unexpectedErrors(b.problems), []);
});
