// The admin page: sign-in, room controls and errors from the API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, ADMIN_TOKEN, api, launch, uniqueName, until, unexpectedErrors } from './helpers.mjs';

test('the admin page signs in, creates, pauses and resumes a room', { timeout: 60000 }, async (t) => {
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
  await until(async () => (await api('GET', '/api/rooms')).data.find((r) => r.name === name)?.tick_ms === 300, { what: 'tick set' });

  // The server's {error} text is shown: the room exists already.
  await page.fill('#room-name', name);
  await page.click('#room-form button');
  await page.waitForSelector('#admin-error:not(.hidden)');
  assert.match(await page.locator('#admin-error').textContent(), /exists/);

  // A reload keeps the session; signing out forgets the token.
  await page.reload();
  await page.waitForSelector('#console:not(.hidden)');
  await page.click('#logout');
  await page.waitForSelector('#login:not(.hidden)');
  assert.equal(await page.evaluate(() => sessionStorage.getItem('snakepit.adminToken')), null);

  await page.goto(BASE + '/admin');
  await page.screenshot({ path: '/tmp/snakepit-admin-login.png' });
  assert.deepEqual(unexpectedErrors(b.problems, [/status of 401/]), []);
});
