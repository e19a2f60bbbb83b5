// Shared pieces of the browser tests: the server under test (from the
// environment set by scripts/browser-tests.sh), a headless Chromium with a
// fresh profile, page-error collection, and API helpers.

import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

/** Base URL of the server under test, e.g. http://127.0.0.1:41234 */
export const BASE = (process.env.SNAKEPIT_URL || '').replace(/\/+$/, '');
/** The admin token the server was started with. */
export const ADMIN_TOKEN = process.env.SNAKEPIT_ADMIN_TOKEN || '';
/** The room the server creates at start. */
export const ROOM = process.env.SNAKEPIT_ROOM || 'snakebattle';

if (!BASE) throw new Error('SNAKEPIT_URL is not set: run the tests through scripts/browser-tests.sh');

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Starts Chromium with a fresh user data dir. Returns `{ context, newPage,
 * close, problems }`: every page made by `newPage` records console errors,
 * uncaught exceptions and dialogs into `problems`.
 */
export async function launch(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snakepit-chromium-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1400, height: 950 },
  });
  const problems = { errors: [], dialogs: [] };
  async function newPage() {
    const page = await context.newPage();
    // Waits for what must happen are generous: a loaded machine is slow,
    // never wrong. A wait that runs out still fails the test.
    page.setDefaultTimeout(60000);
    page.on('pageerror', (e) => problems.errors.push('pageerror: ' + e.message));
    page.on('console', (m) => {
      // A failed WebSocket handshake logs an error too; the tests that
      // expect one say so. Everything else (CSP violations above all) counts.
      if (m.type() === 'error') problems.errors.push('console: ' + m.text());
    });
    page.on('dialog', async (d) => {
      problems.dialogs.push(d.type() + ': ' + d.message());
      await d.dismiss().catch(() => {});
    });
    return page;
  }
  async function close() {
    await context.close().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (t && t.after) t.after(close);
  return { context, newPage, close, problems };
}

/** Calls the JSON API from the test process. */
export async function api(method, p, body, token) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = 'Bearer ' + token;
  const res = await fetch(BASE + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  return { status: res.status, data };
}

/** Registers a player (for SnakeBattle unless `game` says otherwise); returns `{id, name, game, code, url}`. */
export async function register(name, game) {
  const r = await api('POST', '/api/register', game === undefined ? { name } : { name, game });
  if (r.status !== 201) throw new Error('register ' + JSON.stringify(name) + ': ' + r.status + ' ' + JSON.stringify(r.data));
  return r.data;
}

/** A name unlikely to clash with other tests on the same server. */
export function uniqueName(prefix) {
  return prefix + '-' + Math.random().toString(36).slice(2, 7);
}

/** Polls `fn` until it returns a truthy value. */
export async function until(fn, { timeout = 60000, every = 200, what = 'condition' } = {}) {
  const end = Date.now() + timeout;
  let last;
  for (;;) {
    last = await fn();
    if (last) return last;
    if (Date.now() > end) throw new Error('timed out waiting for ' + what);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** Console errors that are not expected by the caller. */
export function unexpectedErrors(problems, allow = []) {
  return problems.errors.filter((e) => !allow.some((re) => re.test(e)));
}

/**
 * Starts a server of its own, stopped when test `t` ends, with `config`
 * (TOML) and a store in a fresh folder; `prepare(dir)`, when given, runs
 * first with that folder (its store is `dir/db.sqlite`). Resolves with the
 * server's URL.
 */
export async function serverWith(t, config, prepare) {
  return (await ownServer(t, config, prepare)).url;
}

/** [`serverWith`], with the server's process: `{url, child}`. */
export async function ownServer(t, config, prepare) {
  const bin = process.env.SNAKEPIT_BIN;
  if (!bin) throw new Error('SNAKEPIT_BIN is not set: run the tests through scripts/browser-tests.sh');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snakepit-own-'));
  let child = null;
  t.after(() => {
    if (child) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });
  if (prepare) prepare(dir);
  fs.writeFileSync(path.join(dir, 'config.toml'), config);
  child = spawn(bin, ['serve', '--config', path.join(dir, 'config.toml'), '--bind', '127.0.0.1', '--port', '0', '--db', path.join(dir, 'db.sqlite')], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const lines = readline.createInterface({ input: child.stdout });
  for await (const line of lines) {
    const m = /^snakepit listening on (http:\/\/\S+)/.exec(line);
    if (m) return { url: m[1], child };
  }
  throw new Error('the server exited before it listened');
}

// Waits until `page` is at `url`, whatever its fragment: a page that plays
// a replay writes the tick it shows into the address (`#t=N`), and on a
// busy machine it may do so before the wait begins.
export async function waitForPage(page, url, options) {
  const want = new URL(url);
  await page.waitForURL((u) => u.origin === want.origin && u.pathname === want.pathname && u.search === want.search, options);
}
