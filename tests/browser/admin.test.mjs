// The admin page: sign-in, room controls and errors from the API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, ADMIN_TOKEN, api, launch, register, uniqueName, until, unexpectedErrors } from './helpers.mjs';

test('the admin page signs in, creates, pauses, resumes and closes a room', { timeout: 300000 }, async (t) => {
  const b = await launch(t);
  const page = await b.newPage();
  await page.goto(BASE + '/admin');

  await page.fill('#login-token', 'not-the-token');
  await page.click('#login-form button');
  await page.waitForSelector('#login-error:not(.hidden)');
  assert.match(await page.locator('#login-error').textContent(), /Wrong token/);

  await page.fill('#login-token', ADMIN_TOKEN);
  await page.click('#login-form button');
  await page.waitForSelector('#console:not(.hidden)');
  assert.equal(await page.evaluate(() => sessionStorage.getItem('snakepit.adminToken')), ADMIN_TOKEN);

  const name = uniqueName('web').toLowerCase();
  await page.fill('#room-name', name);
  await page.fill('#room-tick', '200');
  await page.click('#room-form button');
  const row = page.locator('#rooms-body tr[data-room="' + name + '"]');
  await row.waitFor();
  await until(async () => (await row.locator('td').nth(5).textContent()) === '200 ms', { what: 'tick period shown' });

  await row.getByRole('button', { name: 'Pause' }).click();
  await until(async () => (await api('GET', '/api/rooms')).data.find((r) => r.name === name)?.paused === true, { what: 'paused' });
  await row.getByRole('button', { name: 'Resume' }).waitFor();
  await row.getByRole('button', { name: 'Resume' }).click();
  await until(async () => (await api('GET', '/api/rooms')).data.find((r) => r.name === name)?.paused === false, { what: 'resumed' });

  await row.locator('input').fill('300');
  await row.getByRole('button', { name: 'Set' }).click();
  // The page says what the server answered; a failure names it.
  const answer = await until(
    async () => {
      const ok = await page.textContent('#admin-ok');
      const err = await page.textContent('#admin-error');
      return /is now 300 ms/.test(ok || '') ? 'ok' : err ? 'error: ' + err : null;
    },
    { what: 'the answer to setting the tick (input holds ' + JSON.stringify(await row.locator('input').inputValue()) + ')' }
  );
  assert.equal(answer, 'ok');
  await until(async () => (await api('GET', '/api/rooms')).data.find((r) => r.name === name)?.tick_ms === 300, { what: 'tick set' });

  // The server's {error} text is shown: the room exists already.
  await page.fill('#room-name', name);
  await page.click('#room-form button');
  await page.waitForSelector('#admin-error:not(.hidden)');
  assert.match(await page.locator('#admin-error').textContent(), /exists/);

  // Closing a room asks once more, then the room goes.
  await row.getByRole('button', { name: 'Close' }).click();
  await row.getByRole('button', { name: 'Confirm closing' }).click();
  await until(async () => /Closed /.test((await page.textContent('#admin-ok')) || ''), { what: 'the answer to closing' });
  await row.waitFor({ state: 'detached' });
  assert.ok(!(await api('GET', '/api/rooms')).data.some((r) => r.name === name), 'the room is gone');

  // A reload keeps the session; signing out forgets the token.
  await page.reload();
  await page.waitForSelector('#console:not(.hidden)');
  await page.click('#logout');
  await page.waitForSelector('#login:not(.hidden)');
  assert.equal(await page.evaluate(() => sessionStorage.getItem('snakepit.adminToken')), null);

  await page.goto(BASE + '/admin');
  await page.screenshot({ path: '/tmp/snakepit-admin-login.png' });
  // The wrong token (401) and the duplicate room (409) are expected.
  assert.deepEqual(unexpectedErrors(b.problems, [/status of 40[19]/]), []);
});

/**
 * A new player with their page open, and the admin page (signed in) showing
 * their row: `{b, me, player, admin, row}`.
 */
async function playerAndAdmin(t, prefix) {
  const b = await launch(t);
  const me = await register(uniqueName(prefix));
  const player = await b.newPage();
  await player.goto(me.url);
  await player.waitForFunction(() => window.__snakepit && window.__snakepit.player, null, { timeout: 60000 });
  const admin = await b.newPage();
  await admin.addInitScript((tok) => sessionStorage.setItem('snakepit.adminToken', tok), ADMIN_TOKEN);
  await admin.goto(BASE + '/admin');
  const row = admin.locator('#players-body tr[data-player="' + me.id + '"]');
  await row.waitFor();
  return { b, me, player, admin, row };
}

test('kicking a player from the admin page closes their page with the reason', { timeout: 300000 }, async (t) => {
  const { b, me, player, admin, row } = await playerAndAdmin(t, 'kickme');
  // Games go by their names, in the players' rows and the rooms' badges.
  assert.equal(await row.locator('td').nth(2).textContent(), 'SnakeBattle');
  await admin.locator('#rooms-body tr[data-room="duel"]').waitFor();
  assert.equal(await admin.locator('#rooms-body tr[data-room="duel"] .badge.game').textContent(), 'Duel');
  assert.equal(await admin.locator('#rooms-body tr[data-room="multisnake"] .badge.game').textContent(), 'Multisnake');
  await row.getByRole('button', { name: 'Kick' }).click();
  await admin.waitForSelector('#admin-ok:not(.hidden)');
  assert.match(await admin.locator('#admin-ok').textContent(), /Kicked/);

  await player.waitForFunction(() => /kicked/.test(window.__snakepit.error || ''), null, { timeout: 60000 });
  assert.match(await player.locator('#player-error').textContent(), /kicked by the organiser/);
  // The page does not reconnect after a kick.
  await player.waitForFunction(() => /disconnected/.test(document.getElementById('conn').textContent), null, { timeout: 60000 });
  assert.deepEqual(unexpectedErrors(b.problems), []);
});

test('removing a player from the admin page asks once more, then their page says so and their row goes', { timeout: 300000 }, async (t) => {
  const { b, me, player, admin, row } = await playerAndAdmin(t, 'removeme');
  await row.getByRole('button', { name: 'Remove' }).click();
  // The first click only asks.
  await row.getByRole('button', { name: 'Confirm removal' }).waitFor();
  assert.ok((await api('GET', '/api/admin/players', undefined, ADMIN_TOKEN)).data.some((p) => p.id === me.id), 'not removed yet');
  await row.getByRole('button', { name: 'Confirm removal' }).click();
  await until(async () => /Removed/.test((await admin.locator('#admin-ok').textContent()) || ''), { what: 'the answer' });
  await row.waitFor({ state: 'detached', timeout: 60000 });

  await player.waitForFunction(() => /removed by the organiser/.test(window.__snakepit.error || ''), null, { timeout: 60000 });
  const again = await api('GET', '/api/admin/players', undefined, ADMIN_TOKEN);
  assert.ok(!again.data.some((p) => p.id === me.id), 'gone from the players');
  assert.deepEqual(unexpectedErrors(b.problems), []);
  assert.deepEqual(b.problems.dialogs, []);
});

test('seating a player from the admin page moves their page to that room', { timeout: 300000 }, async (t) => {
  const { b, me, player, admin } = await playerAndAdmin(t, 'seatme');
  const name = uniqueName('final').toLowerCase();
  assert.equal((await api('POST', '/api/admin/rooms', { name, game: 'snakebattle' }, ADMIN_TOKEN)).status, 201);
  const row = () => admin.locator('#players-body tr[data-player="' + me.id + '"]');
  // The new room is among the choices of the player's row (their game's rooms only).
  await until(async () => (await row().locator('select option[value="' + name + '"]').count()) === 1, { what: 'the new room among the choices' });
  assert.equal(await row().locator('select option[value="duel"]').count(), 0, 'no room of another game');
  await row().locator('select').selectOption(name);
  await row().getByRole('button', { name: 'Seat' }).click();
  await until(async () => /Seated .* in /.test((await admin.locator('#admin-ok').textContent()) || ''), { what: 'the answer' });
  // Their page reconnects into the room.
  await player.waitForFunction((room) => window.__snakepit.player && window.__snakepit.player.room === room, name, { timeout: 60000 });
  assert.deepEqual(unexpectedErrors(b.problems), []);
});
