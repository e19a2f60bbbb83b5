// The admin page, /admin. The token is asked for once and kept in
// sessionStorage (this tab only); every call sends it as a Bearer token.
'use strict';

(function () {
  const SP = window.Snakepit;
  const $ = SP.$;
  const h = SP.h;
  const KEY = 'snakepit.adminToken';

  let token = sessionStorage.getItem(KEY) || '';
  let okTimer = null;
  /** The player whose Remove button asks for confirmation, if any. */
  const armedRemoval = { id: null, timer: null };

  function call(path, body) {
    return SP.api(path, { method: 'POST', body, token });
  }

  /**
   * A button whose action cannot be undone: the first click arms it (it
   * then says `asking`), a second one within `ms` runs `action`; otherwise
   * it goes back to `idle`. No browser dialog.
   */
  function twoClick(button, idle, asking, ms, action) {
    let timer = null;
    const disarm = () => {
      clearTimeout(timer);
      button.classList.remove('armed');
      button.textContent = idle;
    };
    button.addEventListener('click', () => {
      if (!button.classList.contains('armed')) {
        button.classList.add('armed');
        button.textContent = asking;
        timer = setTimeout(disarm, ms);
        return;
      }
      disarm();
      action();
    });
  }

  function fail(e) {
    if (e.status === 401) {
      SP.say($('admin-error'), 'The server refused the admin token (' + e.message + '). Sign out and enter the right one.');
    } else {
      SP.say($('admin-error'), e.message);
    }
  }

  function done(text, link) {
    SP.say($('admin-error'), '');
    const box = $('admin-ok');
    SP.fill(box, text);
    if (link) box.append(' ', h('a', { href: link, text: link }));
    box.classList.remove('hidden');
    clearTimeout(okTimer);
    okTimer = setTimeout(() => box.classList.add('hidden'), link ? 30000 : 4000);
  }

  // ---- Sign in ----

  function showConsole(on) {
    $('login').classList.toggle('hidden', on);
    $('console').classList.toggle('hidden', !on);
  }

  $('login-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const t = $('login-token').value.trim();
    try {
      await SP.api('/api/admin/players', { token: t });
      token = t;
      sessionStorage.setItem(KEY, t);
      $('login-token').value = '';
      SP.say($('login-error'), '');
      start();
    } catch (err) {
      SP.say($('login-error'), err.status === 401 ? 'Wrong token.' : err.message);
    }
  });

  $('logout').addEventListener('click', () => {
    sessionStorage.removeItem(KEY);
    token = '';
    showConsole(false);
    $('login-token').focus();
  });

  // ---- Rooms ----

  function plural(n, word) {
    return n + ' ' + word + (n === 1 ? '' : 's');
  }

  const roomRows = new Map();
  /** Each room's game, as last listed: the players' "Seat in" choices. */
  const roomGames = new Map();

  function roomRow(name) {
    const cells = {
      game: h('span', { class: 'badge game' }),
      round: h('td', { class: 'num' }),
      tick: h('td', { class: 'num' }),
      state: h('td'),
      seats: h('td', { class: 'small' }),
      period: h('td', { class: 'num' }),
    };
    const pause = h('button', { type: 'button', class: 'small' });
    pause.addEventListener('click', async () => {
      const paused = pause.dataset.paused === 'true';
      try {
        await call('/api/admin/rooms/' + encodeURIComponent(name) + (paused ? '/resume' : '/pause'));
        done((paused ? 'Resumed ' : 'Paused ') + name + '.');
        loadRooms();
      } catch (err) {
        fail(err);
      }
    });
    const ms = h('input', { type: 'number', class: 'small', min: '10', max: '60000', step: '10', placeholder: 'ms', 'aria-label': 'tick period of ' + name });
    const set = h('button', { type: 'button', class: 'small', text: 'Set' });
    set.addEventListener('click', async () => {
      const v = Number(ms.value);
      if (!ms.value || !Number.isFinite(v) || v <= 0) {
        SP.say($('admin-error'), 'Give a tick period in milliseconds.');
        return;
      }
      try {
        const r = await call('/api/admin/rooms/' + encodeURIComponent(name) + '/tick', { tick_ms: Math.round(v) });
        done('Tick period of ' + name + ' is now ' + SP.ms(r && r.tick_ms) + '.');
        ms.value = '';
        loadRooms();
      } catch (err) {
        fail(err);
      }
    });
    // Closing a room cannot be undone: the first click asks, a second one
    // within a few seconds closes it (the row, and so the button, stays
    // across redraws).
    const close = h('button', { type: 'button', class: 'small danger', text: 'Close' });
    close.title = 'Close and delete the room: its players are seated in other rooms of the game';
    twoClick(close, 'Close', 'Confirm closing', 5000, async () => {
      try {
        const r = await SP.api('/api/admin/rooms/' + encodeURIComponent(name), { method: 'DELETE', token });
        const back = r && r.returns_at_restart ? ' It is one of the configuration\'s [[rooms]]: it opens again at the next start unless you take it out of the file.' : '';
        done('Closed ' + name + '; its players were seated in other rooms.' + back);
        loadRooms();
      } catch (err) {
        fail(err);
      }
    });
    const tr = h(
      'tr',
      { dataset: { room: name } },
      h('td', null, h('a', { href: '/room/' + encodeURIComponent(name), text: name }), ' ', cells.game),
      cells.round,
      cells.tick,
      cells.state,
      cells.seats,
      cells.period,
      h('td', { class: 'actions' }, pause, ms, set, ' ', close)
    );
    return { tr, cells, pause };
  }

  async function loadRooms() {
    if (!token) return;
    let rooms;
    try {
      rooms = await SP.api('/api/rooms');
    } catch (err) {
      fail(err);
      return;
    }
    const body = $('rooms-body');
    const seen = new Set();
    let index = 0;
    roomGames.clear();
    for (const r of rooms || []) {
      seen.add(r.name);
      roomGames.set(r.name, r.game);
      let row = roomRows.get(r.name);
      if (!row) {
        row = roomRow(r.name);
        roomRows.set(r.name, row);
      }
      // The server's order. A row already in place stays put: moving it
      // would take the focus, and what is being typed, from its input.
      const at = body.children[index];
      if (at !== row.tr) body.insertBefore(row.tr, at || null);
      index += 1;
      row.cells.game.textContent = SP.gameName(r.game);
      row.cells.game.dataset.game = String(r.game || '');
      row.cells.round.textContent = r.game === 'hex' ? '–' : String(r.round);
      row.cells.tick.textContent = String(r.tick);
      SP.fill(row.cells.state, h('span', { class: r.paused ? 'badge info' : 'badge ok', text: r.paused ? 'paused' : 'running' }));
      const seats = r.seats || [];
      const players = seats.filter((s) => s.name && !s.bot).length;
      const bots = seats.filter((s) => s.bot).length;
      row.cells.seats.textContent = plural(players, 'player') + ', ' + plural(bots, 'bot') + ', ' + r.free_seats + ' open to players';
      row.cells.period.textContent = SP.ms(r.tick_ms);
      row.pause.dataset.paused = String(r.paused);
      row.pause.textContent = r.paused ? 'Resume' : 'Pause';
    }
    for (const [name, row] of roomRows) {
      if (!seen.has(name)) {
        row.tr.remove();
        roomRows.delete(name);
      }
    }
    if (!roomRows.size) SP.fill(body, h('tr', null, h('td', { colspan: '7', class: 'empty', text: 'No rooms.' })));
    else for (const tr of Array.from(body.children)) if (!tr.dataset.room) tr.remove();
  }

  $('room-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const name = $('room-name').value.trim();
    const tick = $('room-tick').value;
    const body = { name, game: $('room-game').value };
    if (tick) body.tick_ms = Math.round(Number(tick));
    try {
      await call('/api/admin/rooms', body);
      done('Created room ' + name + '.');
      $('room-name').value = '';
      $('room-tick').value = '';
      loadRooms();
    } catch (err) {
      fail(err);
    }
  });

  // ---- Players ----

  let lastPlayers = '';

  async function loadPlayers() {
    if (!token) return;
    let players;
    try {
      players = await SP.api('/api/admin/players', { token });
    } catch (err) {
      fail(err);
      return;
    }
    // The rooms too: they are the choices of each row's "Seat in".
    const json = JSON.stringify(players) + '|' + JSON.stringify(Array.from(roomGames));
    if (json === lastPlayers) return;
    lastPlayers = json;
    const list = Array.isArray(players) ? players : [];
    if (!list.length) {
      SP.fill($('players-body'), h('tr', null, h('td', { colspan: '6', class: 'empty', text: 'No players registered.' })));
      return;
    }
    SP.fill(
      $('players-body'),
      list.map((p) => {
        const kick = h('button', { type: 'button', class: 'small danger', text: 'Kick', disabled: !p.room });
        kick.title = p.room ? 'Take out of room ' + p.room + ' (they may come back)' : 'Not in a room';
        kick.addEventListener('click', async () => {
          try {
            const r = await call('/api/admin/players/' + encodeURIComponent(p.id) + '/kick');
            done((r && r.kicked ? 'Kicked ' : 'Released ') + p.name + ' from ' + ((r && r.room) || 'the room') + '.');
            lastPlayers = '';
            loadPlayers();
            loadRooms();
          } catch (err) {
            fail(err);
          }
        });
        // Seating: a room of the player's game, or a new one for them.
        const where = h(
          'select',
          { class: 'small', 'aria-label': 'room for ' + p.name },
          ...Array.from(roomGames)
            .filter(([, game]) => game === p.game)
            .map(([name]) => h('option', { value: name, text: name, selected: name === p.room })),
          h('option', { value: '', text: 'a new room' })
        );
        const seat = h('button', { type: 'button', class: 'small', text: 'Seat' });
        seat.title = 'Move to this room: they sit there when their bot or page reconnects';
        seat.addEventListener('click', async () => {
          try {
            const r = await call('/api/admin/players/' + encodeURIComponent(p.id) + '/room', { room: where.value || null });
            done('Seated ' + p.name + ' in ' + ((r && r.room) || 'a room') + '; they sit there when they reconnect.');
            lastPlayers = '';
            loadRooms();
            loadPlayers();
          } catch (err) {
            fail(err);
          }
        });
        // Removal cannot be undone: the first click asks, a second one
        // within a few seconds removes (no browser dialog). The question
        // outlives the table's redraws, which rebuild the button.
        const asking = armedRemoval.id === p.id;
        const remove = h('button', { type: 'button', class: 'small danger', text: asking ? 'Confirm removal' : 'Remove' });
        remove.title = 'Remove for good: the secret URL stops working and the points go';
        remove.addEventListener('click', async () => {
          if (armedRemoval.id !== p.id) {
            clearTimeout(armedRemoval.timer);
            armedRemoval.id = p.id;
            remove.textContent = 'Confirm removal';
            armedRemoval.timer = setTimeout(() => {
              armedRemoval.id = null;
              remove.textContent = 'Remove';
              // The button on screen may be a redrawn one.
              lastPlayers = '';
              loadPlayers();
            }, 5000);
            return;
          }
          clearTimeout(armedRemoval.timer);
          armedRemoval.id = null;
          try {
            await SP.api('/api/admin/players/' + encodeURIComponent(p.id), { method: 'DELETE', token });
            done('Removed ' + p.name + ': their URL no longer works.');
            lastPlayers = '';
            loadPlayers();
            loadRooms();
          } catch (err) {
            remove.textContent = 'Remove';
            fail(err);
          }
        });
        return h(
          'tr',
          { dataset: { player: p.id } },
          h('td', { class: 'name-cell', text: p.name }),
          h('td', { class: 'mono small', text: p.id }),
          h('td', null, h('span', { class: 'badge game', dataset: { game: String(p.game || '') }, text: SP.gameName(p.game) })),
          h('td', null, p.room ? h('a', { href: '/room/' + encodeURIComponent(p.room), text: p.room }) : h('span', { class: 'faint', text: '–' })),
          h('td', { class: 'url-cell' }, h('a', { href: p.url, text: p.url })),
          h('td', { class: 'actions' }, where, seat, ' ', kick, ' ', remove)
        );
      })
    );
  }

  $('player-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const p = await call('/api/admin/players', { name: $('player-name').value, game: $('player-game').value });
      done('Added ' + p.name + '. Their secret URL:', p.url);
      $('player-name').value = '';
      loadPlayers();
    } catch (err) {
      fail(err);
    }
  });

  // ---- Scores ----

  twoClick($('reset-scores'), 'Reset all scores', 'Click again to reset every score', 4000, async () => {
    try {
      const r = await call('/api/admin/reset-scores');
      done('Scores reset (' + ((r && r.rows_cleared) || 0) + ' rows cleared).');
    } catch (err) {
      fail(err);
    }
  });

  $('refresh').addEventListener('click', () => {
    lastPlayers = '';
    loadRooms();
    loadPlayers();
  });

  let started = false;
  function start() {
    showConsole(true);
    if (started) {
      lastPlayers = '';
      loadRooms();
      loadPlayers();
      return;
    }
    started = true;
    SP.poll(loadRooms, 3000);
    SP.poll(loadPlayers, 5000);
  }

  if (token) start();
  else showConsole(false);
})();
