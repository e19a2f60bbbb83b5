// The player's own page, /codenjoy-contest/board/player/ID?code=CODE.
//
// It opens /ws/player?user=ID&code=CODE, which sends the room's frames
// (drawn as on the room page, with the player's snake highlighted), a
// private `player` message every tick (the board string the bot gets and
// the recent answers), and `error` before the server closes the socket.
// Arrow keys / WASD / Space are sent back as UP, DOWN, LEFT, RIGHT, ACT.
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

  const view = new SP.BoardView($('board'));
  const events = new SP.EventLog($('events'), 60);
  // Test hook: the latest messages (read by the browser tests).
  const hook = (window.__snakepit = { page: 'player', frame: null, player: null, frames: 0, sent: [], error: null, view });

  let mySeat = null;
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
    view.setFrame(f);
    SP.renderPhase($('phase'), f);
    SP.renderPlayers($('players'), f, mySeat);
    $('tick').textContent = 'tick ' + f.tick;
    events.add(f);
    renderMe(f);
  }

  function renderMe(f) {
    const me = mySeat === null ? null : f.snakes.find((s) => s.seat === mySeat);
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
      st.textContent = 'waiting for the round';
      st.className = 'badge warn';
    } else if (me.fury > 0) {
      st.textContent = 'fury ' + me.fury;
      st.className = 'badge fury';
    } else {
      st.textContent = 'length ' + me.body.length + ' · ' + me.score + ' pts';
      st.className = 'badge ok';
    }
  }

  function onPlayer(p) {
    hook.player = p;
    if (mySeat !== p.seat) {
      mySeat = p.seat;
      view.setMySeat(mySeat);
      if (hook.frame) SP.renderPlayers($('players'), hook.frame, mySeat);
    }
    $('player-title').textContent = p.name;
    document.title = 'snakepit · ' + p.name;
    $('me-name').textContent = p.name;
    const room = $('me-room');
    room.textContent = p.room;
    room.href = SP.safeHref('/room/' + encodeURIComponent(p.room));
    $('me-seat').textContent = String(p.seat + 1);
    const bot = $('me-bot');
    SP.fill(bot, h('span', { class: 'dot' + (p.bot_connected ? ' on' : '') }), p.bot_connected ? ' bot connected' : ' no bot connected');
    renderBoard(p.board);
    renderLog(p.log || []);
    if (hook.frame) renderMe(hook.frame);
  }

  function renderBoard(board) {
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
        const good = /(^|: )ok: /.test(note) || note === 'bot connected';
        const bad = /dropped|disconnected|no command|skips|ignored|empty/.test(note);
        return h(
          'tr',
          { class: good ? 'good' : bad ? 'bad' : null },
          h('td', { class: 'num', text: String(a.tick) }),
          h('td', { class: 'text', text: a.text }),
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

  const sock = SP.live(SP.wsUrl('/ws/player?user=' + encodeURIComponent(id) + '&code=' + encodeURIComponent(code)), {
    message(msg) {
      if (msg.type === 'frame' && msg.data && typeof msg.data.size === 'number') onFrame(msg.data);
      else if (msg.type === 'player' && msg.data) onPlayer(msg.data);
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
        if (!info.opened && failures >= 2) {
          showError('Could not connect. Check that the id and code in this address are the ones you got at registration.');
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
    const b = buttons[cmd];
    if (b) {
      b.classList.add('flash');
      setTimeout(() => b.classList.remove('flash'), 160);
    }
  }

  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)) return;
    const cmd = KEYS[e.code] || KEYS[e.key];
    if (!cmd) return;
    e.preventDefault();
    // A focused button would click itself on keyup as well.
    if (t && t.tagName === 'BUTTON') t.blur();
    if (e.repeat) return;
    send(cmd);
  });
})();
