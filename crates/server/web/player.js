// The player's own page, /codenjoy-contest/board/player/ID?code=CODE.
//
// It opens /ws/player?user=ID&code=CODE, which sends the room's frames
// (drawn as on the room page, with the player's snake highlighted), a
// private `player` message every tick (the board string the bot gets and
// the recent answers), and `error` before the server closes the socket.
// SnakeBattle: arrow keys / WASD / Space are sent back as UP, DOWN, LEFT,
// RIGHT, ACT. Hex: a click on one of the player's pieces selects it and
// marks its legal targets; a click on a target (or an arrow key, with
// Shift for a jump) sends `ACT(x,y),DIR` or `ACT(x,y,1),DIR`.
// The stdin/stdout arenas (carrots, duel, multisnake): the same keys steer
// (sent as UP, DOWN, LEFT, RIGHT, which those rooms take as moves), the
// page has an editor to save a program (POST /api/code) and shows that
// program's stderr and faults, which the server sends to this page only
// (`stderr` messages).
'use strict';

(function () {
  const SP = window.Snakepit;
  const $ = SP.$;
  const h = SP.h;

  const id = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');
  const code = new URLSearchParams(location.search).get('code') || '';
  const pageUrl = location.origin + location.pathname + location.search;
  // The URL a Codenjoy client derives from the page URL.
  const botUrl = pageUrl.replace(/^http/, 'ws').replace('board/player/', 'ws?user=').replace('?code=', '&code=');
  $('page-url').value = pageUrl;
  $('ws-url').value = botUrl;
  for (const b of document.querySelectorAll('button[data-copy]')) {
    b.addEventListener('click', async () => {
      const input = $(b.dataset.copy);
      const ok = await SP.copy(input.value, input);
      b.textContent = ok ? 'Copied' : 'Select + copy';
      setTimeout(() => (b.textContent = 'Copy'), 1500);
    });
  }

  for (const a of document.querySelectorAll('#templates a[data-lang]')) {
    a.href = SP.safeHref('/api/templates/' + encodeURIComponent(a.dataset.lang) + '?user=' + encodeURIComponent(id) + '&code=' + encodeURIComponent(code));
    a.setAttribute('download', '');
  }

  // The player's latest kept games, linked with their credentials so that
  // the viewer shows their program's stderr, and with their seat so that
  // it marks their snake.
  const GAMES_SHOWN = 8;
  let lastResult = null;
  async function loadGames() {
    const games = await SP.api('/api/replays?player=' + encodeURIComponent(id) + '&limit=' + GAMES_SHOWN);
    $('games-panel').classList.toggle('hidden', games.length === 0);
    const creds = '?player=' + encodeURIComponent(id) + '&code=' + encodeURIComponent(code);
    SP.fill(
      $('games'),
      ...games.map((g) => {
        const seat = g.players.indexOf(id);
        const place = g.result && g.result.places ? g.result.places[seat] : null;
        const what = place == null ? '' : place === 1 ? 'won or shared first' : 'place ' + place;
        return h(
          'li',
          null,
          h('a', { href: '/replays/' + g.id + creds + (seat >= 0 ? '&seat=' + seat : ''), class: 'game-link', text: SP.gameName(g.game) + ' ' + g.id }),
          h('span', { class: 'faint', text: [g.origin, what, SP.ago(g.created_ms)].filter(Boolean).join(' · ') })
        );
      })
    );
  }
  SP.poll(loadGames, 15000);

  const view = new SP.BoardView($('board'));
  const events = new SP.EventLog($('events'), 60);
  // Test hook: the latest messages (read by the browser tests).
  const hook = (window.__snakepit = {
    page: 'player',
    game: null,
    seat: null,
    frame: null,
    player: null,
    frames: 0,
    sent: [],
    stderr: [],
    recent: [],
    error: null,
    selected: null,
    view,
  });

  let mySeat = null;
  let game = null;
  // Whether the player's name has arrived (it replaces the page title).
  let named = false;
  let failures = 0;

  function showError(text) {
    hook.error = text || null;
    SP.say($('player-error'), text);
  }

  let staleError = false;

  function onFrame(f) {
    // The first frame after a reconnect means the last error is over.
    if (staleError) {
      staleError = false;
      showError('');
    }
    hook.frame = f;
    hook.frames += 1;
    // The last heads by tick, so that tests can see a key take effect.
    hook.recent.push({ tick: f.tick, round: f.round, phase: f.phase, heads: f.snakes.map((s) => [s.seat, s.body[0] || null, s.dir]) });
    if (hook.recent.length > 40) hook.recent.shift();
    setGame(f.game);
    view.setFrame(f);
    if (game === 'hex') hexFrame(f);
    SP.renderPhase($('phase'), f);
    SP.renderResult($('result'), f);
    if ((f.phase === 'over' || f.phase === 'countdown') && f.result && f.result !== lastResult) {
      lastResult = f.result;
      // The replay is written just after the game ends.
      setTimeout(() => loadGames().catch(() => {}), 500);
    }
    SP.renderPlayers($('players'), f, mySeat);
    SP.renderLegend($('legend'), f, mySeat);
    $('tick').textContent = 'room tick ' + f.tick;
    events.add(f);
    renderMe(f);
  }

  // A snake that sleeps until the next round says when that is, counting
  // down between frames: the frame gives the time left at most (a round
  // that ends early starts the next one sooner).
  let startsAt = null;
  let nextWhat = 'round';
  let keyStarts = false;
  function showNextStart() {
    const box = $('next-start');
    if (startsAt === null) {
      box.classList.add('hidden');
      return;
    }
    const s = Math.max(0, Math.ceil((startsAt - Date.now()) / 1000));
    const lead = 'You play from the next ' + nextWhat + ': it starts ';
    // Between two games of the duel and Multisnake a key starts the next
    // one once everyone seated at a page has pressed one.
    const key = keyStarts && s > 0 ? ' Press an arrow key to start it now.' : '';
    box.textContent = (s > 0 ? lead + 'in ' + s + ' s at most.' : lead + 'now.') + key;
    box.classList.remove('hidden');
  }
  setInterval(showNextStart, 250);

  function renderMe(f) {
    if (SP.isHex(f)) return renderHexMe(f);
    const me = mySeat === null ? null : f.snakes.find((s) => s.seat === mySeat);
    // In the duel and Multisnake a person who sat down during a game
    // watches a bot play it out and plays from the next one.
    const series = f.game === 'duel' || f.game === 'multisnake';
    keyStarts = series && f.phase === 'over';
    const waits = me && ((me.alive && me.sleeping) || (series && (me.bot || keyStarts)));
    nextWhat = f.game === 'snakebattle' ? 'round' : 'game';
    startsAt = waits && !f.paused ? Date.now() + (f.starts_in_ms || 0) : null;
    hook.startsInMs = startsAt === null ? null : f.starts_in_ms;
    showNextStart();
    const st = $('me-status');
    if (!me) {
      st.textContent = mySeat === null ? 'joining…' : 'no snake';
      st.className = 'badge';
      return;
    }
    SP.swatch($('me-swatch'), me.color);
    if (!me.alive) {
      st.textContent = 'dead';
      st.className = 'badge bad';
    } else if (me.sleeping) {
      // A snake that joined during a round plays from the next one.
      const left = f.phase === 'running' && f.phase_ticks_max > 0 ? f.phase_ticks_max - f.phase_ticks : 0;
      st.textContent = left > 0 ? 'waiting for the next round (at most ' + left + ' ticks)' : 'waiting for the round';
      st.className = 'badge warn';
    } else if (me.fury > 0) {
      st.textContent = 'fury ' + me.fury;
      st.className = 'badge fury';
    } else {
      st.textContent = 'length ' + me.body.length + ' · ' + me.score + ' pts';
      st.className = 'badge ok';
    }
  }

  function renderHexMe(f) {
    const st = $('me-status');
    const me = mySeat === null ? null : (f.players || []).find((p) => p.seat === mySeat);
    if (!me) {
      st.textContent = mySeat === null ? 'joining…' : 'no seat';
      st.className = 'badge';
      return;
    }
    SP.swatch($('me-swatch'), me.color);
    const n = SP.hexCounts(f).get(mySeat) || 0;
    if (!n) {
      st.textContent = 'waiting for a piece';
      st.className = 'badge warn';
    } else {
      st.textContent = n + (n === 1 ? ' piece' : ' pieces') + ' · ' + me.score + ' pts';
      st.className = 'badge ok';
    }
  }

  const ARENAS = { carrots: true, duel: true, multisnake: true };

  /** Shows the controls of the room's game; the frames say which it is. */
  function setGame(g) {
    const next = g === 'hex' ? 'hex' : ARENAS[g] ? g : 'snakebattle';
    if (next === game) return;
    game = next;
    hook.game = game;
    const hex = game === 'hex';
    const arena = !!ARENAS[game];
    for (const el of document.querySelectorAll('.sb-only')) el.classList.toggle('hidden', game !== 'snakebattle');
    $('code-panel').classList.toggle('hidden', !arena);
    $('stderr-panel').classList.toggle('hidden', !arena);
    // The zipped clients play SnakeBattle's boards: not Hex, not the
    // arenas' JSON.
    $('templates-label').classList.toggle('hidden', game !== 'snakebattle');
    $('templates').classList.toggle('hidden', game !== 'snakebattle');
    // Codenjoy clients speak SnakeBattle and Hex only.
    $('page-url-client').classList.toggle('hidden', arena);
    $('code-duel-note').classList.toggle('hidden', game !== 'duel');
    $('bot-line').classList.toggle('hidden', !arena);
    if (arena) {
      $('bot-view-help').textContent =
        'The state a WebSocket bot receives this tick as one JSON line (answer {"move":"up"}), drawn as a picture above the line itself. An uploaded program reads the same state in the game\'s own text format.';
      $('code-restart-rule').textContent =
        game === 'carrots' ? 'your snake dies and respawns with the new program' : 'the new program takes over your snake at its next move (a dead snake moves again in the next game)';
      loadCode();
    }
    $('snake-controls').classList.toggle('hidden', hex);
    $('hex-controls').classList.toggle('hidden', !hex);
    $('play-title').textContent = hex ? 'Play with the mouse' : 'Keyboard play';
    document.body.dataset.game = game;
    if (!hex) select(null);
    if (!named) $('player-title').textContent = hex ? 'Your pieces' : 'Your snake';
  }

  function onPlayer(p) {
    const roomChanged = !hook.player || hook.player.room !== p.room || hook.player.game !== p.game;
    hook.player = p;
    if (roomChanged) loadRooms().catch((e) => console.error(e));
    hook.seat = p.seat;
    named = true;
    if (mySeat !== p.seat) {
      mySeat = p.seat;
      select(null);
      view.setMySeat(mySeat);
      if (hook.frame) {
        SP.renderPlayers($('players'), hook.frame, mySeat);
        SP.renderLegend($('legend'), hook.frame, mySeat);
      }
    }
    $('player-title').textContent = p.name;
    document.title = 'snakepit · ' + p.name;
    $('me-name').textContent = p.name;
    const room = $('me-room');
    room.textContent = p.room;
    room.href = SP.safeHref('/room/' + encodeURIComponent(p.room));
    $('me-seat').textContent = String(p.seat + 1);
    const bot = $('me-bot');
    SP.fill(bot, h('span', { class: 'dot' + (p.bot_connected ? ' on' : '') }), ' ' + holderText(p));
    renderBoard(p.board);
    renderLog(p.log || []);
    renderLastNote(p.log || []);
    if (hook.frame) renderMe(hook.frame);
  }

  function holderText(p) {
    const arena = !!ARENAS[p.game];
    if (!p.bot_connected) return arena ? 'no bot or program playing' : 'no bot connected';
    return p.program_playing ? 'program playing' : 'bot connected';
  }

  /** The server's note on the last command this page sent, if it has one. */
  function renderLastNote(log) {
    const last = hook.sent[hook.sent.length - 1];
    let note = null;
    if (last) {
      for (let i = log.length - 1; i >= 0; i--) {
        const a = log[i];
        if (a.text === last && /^from the page/.test(String(a.note || ''))) {
          note = String(a.note).replace(/^from the page: /, '');
          // A refusal at the tick comes as a later entry with no text.
          const after = log.slice(i + 1).find((b) => !b.text && /^refused/.test(String(b.note || '')));
          if (after) note += ' → ' + after.note;
          break;
        }
      }
    }
    $('last-note').textContent = note || '';
    $('last-note-line').classList.toggle('hidden', !note);
  }

  /**
   * The arenas' JSON line as a picture: its `cells` rows with each snake
   * drawn over them (heads A, B, C… by seat, bodies a, b, c…); the line
   * itself goes below it, wrapped. A line of a 120x80 board is 10,000
   * characters: read whole it says nothing.
   */
  function arenaPicture(line) {
    let v = null;
    try {
      v = JSON.parse(line);
    } catch {
      return line;
    }
    if (!v || !Array.isArray(v.cells)) return line;
    const rows = v.cells.map((r) => Array.from(String(r)));
    for (const s of Array.isArray(v.snakes) ? v.snakes : []) {
      const seat = Number(s.seat) || 0;
      const head = String.fromCharCode(65 + (seat % 26));
      (Array.isArray(s.body) ? s.body : []).forEach((p, i) => {
        const row = Array.isArray(p) ? rows[p[1]] : null;
        if (row && p[0] >= 0 && p[0] < row.length) row[p[0]] = i === 0 ? head : head.toLowerCase();
      });
    }
    const you = String.fromCharCode(65 + ((Number(v.you) || 0) % 26));
    return 'tick ' + v.tick + ' · you are ' + you + ' (heads A, B… bodies a, b…)\n' + rows.map((r) => r.join('')).join('\n');
  }

  function renderBoard(board) {
    if (ARENAS[game]) {
      $('bot-board').textContent = board ? arenaPicture(board) : 'no move to make this tick';
      $('bot-line').textContent = board || '';
      return;
    }
    const chars = Array.from(board || '');
    const n = Math.round(Math.sqrt(chars.length));
    if (!n || n * n !== chars.length) {
      $('bot-board').textContent = board || '';
      return;
    }
    $('board-size').textContent = String(n);
    const rows = [];
    for (let y = 0; y < n; y++) rows.push(chars.slice(y * n, (y + 1) * n).join(''));
    $('bot-board').textContent = rows.join('\n');
  }

  function renderLog(log) {
    const rows = log
      .slice()
      .reverse()
      .map((a) => {
        const note = String(a.note || '');
        // SnakeBattle and Hex notes say `ok: ...`; the programs of the
        // stdin/stdout arenas `ok after N ms` or `forfeit: why`.
        // A valid answer that had no effect (a sleeping snake) is not good.
        const idle = /no effect|no stone to drop/.test(note);
        const good = !idle && (/(^|: )ok: /.test(note) || /^ok after \d+ ms$/.test(note) || /(^|: )(clone|jump) \[/.test(note) || note === 'bot connected');
        const bad = /^forfeit: |dropped|disconnected|no command|skips|ignored|empty|refused|cleared|does nothing|no move/.test(note);
        return h(
          'tr',
          { class: good ? 'good' : bad ? 'bad' : null },
          h('td', { class: 'num', text: String(a.tick) }),
          // Commands like ACT(12,1,1),DOWN stay on one line.
          h('td', { class: String(a.text || '').length <= 20 ? 'text short' : 'text', text: a.text }),
          h('td', { class: 'note', text: note })
        );
      });
    SP.fill($('log'), rows);
    $('log-empty').classList.toggle('hidden', rows.length > 0);
  }

  if (!id || !code) {
    showError('This address has no player id or code. Open the URL you were given at registration.');
    view.setMessage('no player id or code in the address');
    return;
  }

  // A refused WebSocket handshake shows the page no status, so a failed
  // connection asks the API whether the id and code are known: when they
  // are not, retrying cannot help.
  let checking = false;
  async function checkCredentials() {
    if (checking || hook.refused) return;
    checking = true;
    try {
      await SP.api('/api/code?user=' + encodeURIComponent(id) + '&code=' + encodeURIComponent(code));
    } catch (e) {
      if (e.status === 401 || e.status === 403) {
        hook.refused = true;
        sock.stop();
        showError('The server does not know this player id and code. Check that this address is the one you got at registration, or register again in the lobby.');
        view.setMessage('wrong player id or code');
        SP.connStatus($('conn'), 'stopped');
      }
    } finally {
      checking = false;
    }
  }

  const sock = SP.live(SP.wsUrl('/ws/player?user=' + encodeURIComponent(id) + '&code=' + encodeURIComponent(code)), {
    message(msg) {
      if (msg.type === 'frame' && msg.data && typeof msg.data.size === 'number') onFrame(msg.data);
      else if (msg.type === 'player' && msg.data) onPlayer(msg.data);
      else if (msg.type === 'stderr' && msg.data) onStderr(msg.data);
      else if (msg.type === 'error' && msg.data) showError(String(msg.data.message || 'error'));
    },
    status(state, info) {
      SP.connStatus($('conn'), state, info);
      if (state === 'open') {
        failures = 0;
        staleError = !!hook.error;
      }
      if (state === 'retry') {
        failures += info.opened ? 0 : 1;
        if (!info.opened) checkCredentials();
        if (hook.refused) return;
        if (!info.opened && failures >= 2) {
          // A wrong id or code is told apart (checkCredentials gets 401);
          // anything else is the server or the network.
          showError('Cannot reach the server; retrying…');
        } else if (info.opened && movedAway(info.event)) {
          // Asked for on this page: the move's own message says so.
        } else if (info.opened && !hook.error) {
          showError('Connection lost; reconnecting…');
        }
      }
      if (state === 'stopped') view.setMessage('disconnected');
    },
    retry(ev) {
      // Kicked by the organiser: do not come straight back.
      return !(ev && ev.code === 4003);
    },
  });

  // ---- Moving to another room ----

  /** Whether a close is the server's "you moved to room X; reconnect". */
  function movedAway(ev) {
    return !!ev && ev.code === 1012 && /^you moved to room /.test(ev.reason || '');
  }

  /** Fills the room choice with the rooms of the player's game. */
  async function loadRooms() {
    const me = hook.player;
    if (!me) return;
    const rooms = await SP.api('/api/rooms');
    const select = $('move-room');
    const keep = select.value;
    // CodeCarrots is one board for everyone: no room of one's own.
    const options = me.game === 'carrots' ? [] : [h('option', { value: '' }, 'a new room')];
    for (const r of rooms) {
      if (r.game !== me.game) continue;
      const people = r.seats.filter((s) => s.name && !s.bot).map((s) => s.name);
      const here = r.name === me.room;
      const label = here
        ? r.name + ' (here)'
        : r.name + (people.length ? ' · ' + people.join(', ') : '') + (r.free_seats > 0 ? ' · ' + r.free_seats + ' free' : ' · full');
      options.push(h('option', { value: r.name, disabled: !here && r.free_seats === 0 ? '' : null }, label));
    }
    SP.fill(select, ...options);
    const wanted = Array.from(select.options).find((o) => o.value === keep && keep !== '' && !o.disabled);
    select.value = wanted ? keep : me.room;
  }
  SP.poll(loadRooms, 5000);

  $('move-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    SP.say($('move-msg'), '');
    SP.say($('move-error'), '');
    const btn = $('move-go');
    btn.disabled = true;
    try {
      const wanted = $('move-room').value;
      const r = await SP.api('/api/player/room', { body: { user: id, code, room: wanted || null } });
      let text = 'You play in room ' + r.room + ' now.';
      if (typeof r.program === 'string' && r.program !== 'started') text += ' Your program: ' + r.program + '.';
      else if (r.program === 'started') text += ' Your program plays there.';
      SP.say($('move-msg'), text);
      hook.moved = r.room;
    } catch (err) {
      SP.say($('move-error'), err.message);
    } finally {
      btn.disabled = false;
    }
  });

  // ---- Keyboard and on-screen controls ----

  const KEYS = {
    ArrowUp: 'UP',
    ArrowDown: 'DOWN',
    ArrowLeft: 'LEFT',
    ArrowRight: 'RIGHT',
    KeyW: 'UP',
    KeyS: 'DOWN',
    KeyA: 'LEFT',
    KeyD: 'RIGHT',
    Space: 'ACT',
  };
  const buttons = {};
  for (const b of document.querySelectorAll('button[data-cmd]')) {
    buttons[b.dataset.cmd] = b;
    b.addEventListener('click', (e) => {
      send(b.dataset.cmd);
      // Keep focus off the button so that Space does not click it again.
      if (e.detail > 0) b.blur();
    });
  }

  function send(cmd) {
    const ok = sock.send(cmd);
    hook.sent.push(cmd);
    $('last-sent').textContent = ok ? cmd : cmd + ' (not connected)';
    $('last-note-line').classList.add('hidden');
    const b = buttons[cmd];
    if (b) {
      b.classList.add('flash');
      setTimeout(() => b.classList.remove('flash'), 160);
    }
    return ok;
  }

  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)) return;
    if (game === 'hex') {
      hexKey(e);
      return;
    }
    const cmd = KEYS[e.code] || KEYS[e.key];
    if (!cmd || (cmd === 'ACT' && ARENAS[game])) return;
    e.preventDefault();
    // A focused button would click itself on keyup as well.
    if (t && t.tagName === 'BUTTON') t.blur();
    if (e.repeat) return;
    send(cmd);
  });

  // ---- Arenas: the program's stderr, and the code editor ----

  /** Lines kept on the page, as the server keeps them. */
  const STDERR_LINES_MAX = 1000;

  function onStderr(m) {
    const pre = $('stderr');
    if (m.reset) {
      hook.stderr = [];
      pre.replaceChildren();
    }
    const stick = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 4;
    for (const raw of m.lines || []) {
      const line = String(raw);
      hook.stderr.push(line);
      const cls = /^fault: /.test(line) ? 'fault' : /^-- /.test(line) ? 'meta' : null;
      // Text nodes only: a program's output is never markup.
      pre.append(SP.h('span', { class: cls, text: line + '\n' }));
    }
    while (hook.stderr.length > STDERR_LINES_MAX) hook.stderr.shift();
    while (pre.childNodes.length > STDERR_LINES_MAX) pre.firstChild.remove();
    if (stick) pre.scrollTop = pre.scrollHeight;
  }

  $('stderr-clear').addEventListener('click', () => {
    hook.stderr = [];
    $('stderr').replaceChildren();
  });

  let codeInfo = null;
  let codeLoading = false;

  async function loadCode() {
    if (codeInfo || codeLoading) return;
    codeLoading = true;
    try {
      codeInfo = await SP.api('/api/code?user=' + encodeURIComponent(id) + '&code=' + encodeURIComponent(code));
    } catch (e) {
      SP.say($('code-error'), 'Cannot load your program: ' + e.message);
      codeLoading = false;
      return;
    }
    codeLoading = false;
    const sel = $('code-lang');
    SP.fill(sel, (codeInfo.langs || []).map((l) => SP.h('option', { value: l.key, text: l.label })));
    $('code-max').textContent = Math.round((codeInfo.source_bytes_max || 65536) / 1024) + ' KiB';
    const saved = codeInfo.saved;
    if (saved) {
      sel.value = saved.lang;
      $('code-name').value = saved.name;
      $('code-source').value = saved.source;
    } else {
      $('code-name').value = 'starter';
      loadStarter();
    }
    // The server runs no uploaded program (its sandbox lacks a layer):
    // said before the player writes one, and again if they save.
    if (codeInfo.programs_refused) SP.say($('code-error'), 'Programs do not run here: ' + codeInfo.programs_refused);
    hook.codeLoaded = true;
  }

  function loadStarter() {
    if (!codeInfo) return;
    $('code-source').value = (codeInfo.starters || {})[$('code-lang').value] || '';
  }

  $('code-starter').addEventListener('click', loadStarter);

  $('code-source').addEventListener('keydown', (e) => {
    if (e.key !== 'Tab' || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
    e.preventDefault();
    const ta = e.target;
    ta.setRangeText('    ', ta.selectionStart, ta.selectionEnd, 'end');
  });

  $('code-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    SP.say($('code-error'), '');
    // A save waits for its turn at the compiler while others compile; a
    // refusal (queue full, a newer save of yours) comes back as the error.
    SP.say($('code-ok'), 'Saving: your program is checked first (it waits its turn if others are compiling)...');
    const btn = $('code-save');
    btn.disabled = true;
    try {
      const r = await SP.api('/api/code', {
        body: { user: id, code, lang: $('code-lang').value, name: $('code-name').value, source: $('code-source').value },
      });
      SP.say($('code-ok'), 'Saved: it runs in room ' + r.room + ', seat ' + (r.seat + 1) + '.');
      hook.codeSaved = (hook.codeSaved || 0) + 1;
    } catch (err) {
      SP.say($('code-ok'), '');
      SP.say($('code-error'), err.message);
    } finally {
      btn.disabled = false;
    }
  });

  // ---- Hex: mouse and keyboard play ----

  const canvas = $('board');
  // The selected piece [x, y], and a move sent but not yet played.
  let sel = null;
  let pending = null;

  function hint(text, bad) {
    const el = $('hex-hint');
    el.textContent = text || '';
    el.classList.toggle('bad', !!bad);
  }

  function isMine(x, y) {
    return !!hook.frame && mySeat !== null && SP.hexOwner(hook.frame, x, y) === mySeat;
  }

  /** Selects my piece on [x, y] (null clears) and marks its targets. */
  function select(cell) {
    sel = cell ? [cell[0], cell[1]] : null;
    hook.selected = sel ? { x: sel[0], y: sel[1] } : null;
    if (!sel || !hook.frame) {
      view.setSelection(null);
      $('hex-selected').textContent = 'none';
      return;
    }
    const targets = SP.hexTargets(hook.frame, sel[0], sel[1]);
    view.setSelection({ from: sel, targets });
    $('hex-selected').textContent = '(' + sel[0] + ',' + sel[1] + ')';
    if (!targets.length) hint('This piece is boxed in: no free cell one or two steps away.', true);
  }

  /** A frame arrived: keep the selection if the piece is still mine. */
  function hexFrame(f) {
    if (pending && f.tick > pending.tick) {
      pending = null;
      view.setPending(null);
    }
    if (sel) {
      if (isMine(sel[0], sel[1])) select(sel);
      else {
        hint('Your piece at (' + sel[0] + ',' + sel[1] + ') is gone; pick another.', true);
        select(null);
      }
    }
  }

  function hexSend(from, target) {
    const cmd = SP.hexCommand(from[0], from[1], target.dir, target.jump);
    const ok = send(cmd);
    pending = { from: [from[0], from[1]], to: [target.x, target.y], jump: target.jump, tick: hook.frame ? hook.frame.tick : 0 };
    view.setPending(pending);
    hint(ok ? (target.jump ? 'Jump' : 'Clone') + ' sent; it is played at the next tick.' : 'Not connected: the move was not sent.', !ok);
    // After a jump the piece is no longer there; after a clone it is.
    if (target.jump) select(null);
  }

  canvas.addEventListener('click', (e) => {
    if (game !== 'hex' || !hook.frame) return;
    const cell = view.cellAt(e.clientX, e.clientY);
    if (!cell) return;
    if (sel) {
      const target = SP.hexTargets(hook.frame, sel[0], sel[1]).find((g) => g.x === cell[0] && g.y === cell[1]);
      if (target) {
        hexSend(sel, target);
        return;
      }
      if (sel[0] === cell[0] && sel[1] === cell[1]) {
        select(null);
        hint('');
        return;
      }
    }
    if (isMine(cell[0], cell[1])) {
      hint('');
      select(cell);
    } else {
      select(null);
      hint(
        SP.hexOwner(hook.frame, cell[0], cell[1]) !== null
          ? 'That piece is not yours: click one with a white pip.'
          : 'Click one of your pieces first, then a marked cell.'
      );
    }
  });

  canvas.addEventListener('mousemove', (e) => {
    if (game !== 'hex' || !hook.frame) return;
    const cell = view.cellAt(e.clientX, e.clientY);
    view.setHover(cell);
    let active = false;
    if (cell) {
      active = isMine(cell[0], cell[1]) || (!!sel && SP.hexTargets(hook.frame, sel[0], sel[1]).some((g) => g.x === cell[0] && g.y === cell[1]));
    }
    canvas.classList.toggle('clickable', active);
  });
  canvas.addEventListener('mouseleave', () => {
    view.setHover(null);
    canvas.classList.remove('clickable');
  });

  /** My pieces in reading order, those that can move first. */
  function myPieces() {
    const f = hook.frame;
    if (!f || mySeat === null) return [];
    return f.pieces
      .filter((p) => p[2] === mySeat)
      .map((p) => [p[0], p[1]])
      .sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  }

  function hexKey(e) {
    if (e.code === 'Escape') {
      select(null);
      hint('');
      return;
    }
    if (e.code === 'Space') {
      e.preventDefault();
      if (e.target && e.target.tagName === 'BUTTON') e.target.blur();
      const all = myPieces();
      const movable = all.filter((p) => SP.hexTargets(hook.frame, p[0], p[1]).length);
      const list = movable.length ? movable : all;
      if (!list.length) {
        hint('You have no pieces yet: one appears at the next tick.', true);
        return;
      }
      const at = sel ? list.findIndex((p) => p[0] === sel[0] && p[1] === sel[1]) : -1;
      const step = e.shiftKey ? -1 : 1;
      hint('');
      select(list[(at + step + list.length) % list.length]);
      return;
    }
    const dir = KEYS[e.code];
    if (!dir || dir === 'ACT') return;
    e.preventDefault();
    if (e.target && e.target.tagName === 'BUTTON') e.target.blur();
    if (e.repeat) return;
    if (!sel) {
      hint('Select a piece first: click it, or press Space.', true);
      return;
    }
    const jump = e.shiftKey;
    const target = SP.hexTargets(hook.frame, sel[0], sel[1]).find((g) => g.dir === dir && g.jump === jump);
    if (!target) {
      hint('Cannot ' + (jump ? 'jump ' : 'clone ') + dir.toLowerCase() + ' from (' + sel[0] + ',' + sel[1] + '): that cell is not free.', true);
      return;
    }
    hexSend(sel, target);
  }
})();
