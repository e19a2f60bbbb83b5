// The replay viewer: reads the game document from #replay-data (format in
// crates/viewer/src/html/doc.rs), rebuilds any tick's board from the
// start plus per-tick changes, and draws it with the live pages' board
// renderer (board.js, embedded in the page before this file) as the frame
// a spectator of the room would have had, with each seat's panel (move,
// score, stderr, fault) for that tick. `?seat=N` in the address (or
// `#seat=N`) marks seat N's snake as the viewer's own.
//
// Works from file:// with no network: everything it needs is in the page.
// Only a server's page that offers to play a fork (doc.fork.mode
// "server") talks to its own server, and its policy allows nothing else.
// Every text that comes from the document (bot names, stderr, events) goes
// into the page through textContent, never as markup.
'use strict';

(function () {
  const doc = JSON.parse(document.getElementById('replay-data').textContent);
  const W = doc.width;
  const H = doc.height;
  const N = doc.ticks.length;
  const header = doc.header;
  const seats = header.seats;

  // The live rooms' seat colours in their order, so that a seat keeps its
  // colour from the room to its replay.
  const SEAT_COLORS = ['#e6194b', '#3cb44b', '#ffe119', '#4363d8', '#f58231', '#911eb4', '#46f0f0', '#f032e6',
    '#bcf60c', '#fabebe', '#008080', '#e6beff', '#9a6324', '#fffac8', '#800000'];
  const seatColor = (s) => SEAT_COLORS[s % SEAT_COLORS.length];
  const seatLetter = (s) => (s < 26 ? String.fromCharCode(65 + s) : '#' + s);

  // ---- Rebuilding states: snapshots every K ticks, changes in between.

  function applyDiff(cells, diff) {
    for (let i = 0; i + 1 < diff.length; i += 2) {
      const at = diff[i];
      const run = Array.from(diff[i + 1]);
      for (let k = 0; k < run.length && at + k < cells.length; k++) cells[at + k] = run[k];
    }
  }
  const cellCount = Math.max(1, W * H);
  // Enough snapshots that a jump replays few changes, few enough to keep
  // memory small on long games.
  const K = Math.max(32, Math.ceil((N * cellCount * 2) / 4e6));
  const SEP = ' | ';

  // A state: the board, the seat marks, the status line's parts, the
  // scores and who still plays.
  function copy(s) {
    return { t: s.t, board: s.board.slice(), owners: s.owners.slice(), cells: s.cells.slice(), sn: s.sn, status: s.status.slice(), sc: s.sc, al: s.al };
  }
  function advance(s, tick) {
    applyDiff(s.board, tick.b);
    applyDiff(s.owners, tick.o);
    if (tick.c) applyDiff(s.cells, tick.c);
    if (tick.sn) s.sn = tick.sn;
    if (typeof tick.s === 'string') s.status = tick.s.split(SEP);
    else for (let i = 0; i + 1 < tick.s.length; i += 2) s.status[tick.s[i]] = tick.s[i + 1];
    if (tick.sc) s.sc = tick.sc;
    if (tick.al) s.al = tick.al;
    s.t = tick.t;
  }
  const snapshots = [];
  (function buildSnapshots() {
    const st = {
      t: 0,
      board: Array.from(doc.start.b),
      owners: Array.from(doc.start.o),
      cells: Array.from(doc.start.c || ''),
      sn: doc.start.sn || [],
      status: doc.start.s.split(SEP),
      sc: doc.start.sc,
      al: doc.start.al,
    };
    snapshots.push(copy(st));
    for (let t = 1; t <= N; t++) {
      advance(st, doc.ticks[t - 1]);
      if (t % K === 0) snapshots.push(copy(st));
    }
  })();
  let cache = null;
  function stateAt(t) {
    if (cache && cache.t === t) return cache;
    let s;
    if (cache && cache.t < t && t - cache.t <= K) s = cache;
    else s = copy(snapshots[Math.floor(t / K)]);
    for (let u = s.t + 1; u <= t; u++) advance(s, doc.ticks[u - 1]);
    cache = s;
    return cache;
  }
  const info = (t) => (t === 0 ? doc.start : doc.ticks[t - 1]);

  // ---- Drawing the board: a spectator's frame, drawn by board.js.

  const SP = window.Snakepit;
  const canvas = document.getElementById('board');
  const frameBox = document.getElementById('board-frame');
  const boardText = document.getElementById('board-text');
  // The playback controls and the legend stay in view under the board.
  const view = new SP.BoardView(canvas, { reserveHeightPx: 250 });

  // The seat marked as the viewer's own: `seat=N` in the query or the hash.
  const mySeat = (function () {
    const m = /[?&#]seat=(\d+)/.exec(location.search + location.hash);
    const seat = m ? Number(m[1]) : NaN;
    return Number.isSafeInteger(seat) && seat < seats ? seat : null;
  })();
  view.setMySeat(mySeat);

  // The way a head looks: from the cell behind it to the head, across a
  // wrapping edge too.
  function dirOf(body) {
    if (body.length < 2) return 'up';
    let dx = body[0][0] - body[1][0];
    let dy = body[0][1] - body[1][1];
    if (Math.abs(dx) > 1) dx = -Math.sign(dx);
    if (Math.abs(dy) > 1) dy = -Math.sign(dy);
    if (dx > 0) return 'right';
    if (dx < 0) return 'left';
    return dy < 0 ? 'up' : 'down';
  }

  // What the room's last game said at its end, for the board's banner.
  function resultOf(st) {
    const last = st.status[st.status.length - 1] || '';
    return /\b(wins?|won|draw|nobody)\b/.test(last) && !/^[A-Z] .* len /.test(last) ? last : null;
  }

  // The frame a spectator of the room would have had after tick t.
  function frameAt(t) {
    const st = stateAt(t);
    const players = header.players.map((name, seat) => ({
      seat,
      name,
      bot: false,
      color: seatColor(seat),
      score: st.sc && typeof st.sc[seat] === 'number' ? st.sc[seat] : 0,
    }));
    const snakes = [];
    const pieces = [];
    for (const s of st.sn) {
      const flat = s.b || [];
      const body = [];
      for (let i = 0; i + 1 < flat.length; i += 2) body.push([flat[i], flat[i + 1]]);
      if (header.game === 'hex') {
        for (const c of body) pieces.push([c[0], c[1], s.s]);
        continue;
      }
      snakes.push({
        seat: s.s,
        name: header.players[s.s] || '',
        bot: false,
        color: seatColor(s.s),
        alive: !!s.a,
        sleeping: !!s.z,
        fury: s.f || 0,
        flying: s.l || 0,
        stones: 0,
        score: players[s.s] ? players[s.s].score : 0,
        body,
        dir: dirOf(body),
      });
    }
    const result = t === N ? resultOf(st) : null;
    return {
      room: 'replay',
      game: header.game,
      tick: t,
      round: 0,
      phase: result ? 'over' : 'running',
      phase_ticks: t,
      phase_ticks_max: 0,
      paused: false,
      // Snakes slide between ticks for part of the time a tick is shown.
      tick_ms: 1000 / Math.max(1, Number(speed.value) || 10),
      size: Math.max(W, H),
      width: W,
      height: H,
      cells: st.cells.join(''),
      snakes,
      pieces,
      players,
      events: [],
      result,
      starts_in_ms: 0,
    };
  }

  function draw(t) {
    const f = frameAt(t);
    view.setFrame(f);
    SP.renderLegend(document.getElementById('legend'), f, mySeat);
    if (!boardText.hidden) boardText.textContent = rowsOf(stateAt(t).board).join('\n');
  }
  function rowsOf(board) {
    const rows = [];
    for (let y = 0; y < H; y++) rows.push(board.slice(y * W, (y + 1) * W).join(''));
    return rows;
  }

  // ---- The side panels.

  const seatList = document.getElementById('seats');
  const template = document.getElementById('seat-template');
  const seatEls = [];
  for (let s = 0; s < seats; s++) {
    const li = template.content.firstElementChild.cloneNode(true);
    li.id = 'seat-' + s;
    li.dataset.seat = String(s);
    li.style.setProperty('--seat', seatColor(s));
    li.querySelector('.seat-letter').textContent = seatLetter(s);
    li.querySelector('.seat-name').textContent = header.players[s];
    li.querySelector('.seat-name').title = header.players[s];
    if (s === mySeat) {
      li.classList.add('mine');
      li.querySelector('.seat-state').dataset.mine = 'you';
    }
    seatList.appendChild(li);
    seatEls.push({
      li,
      state: li.querySelector('.seat-state'),
      move: li.querySelector('.seat-move'),
      score: li.querySelector('.seat-score'),
      fault: li.querySelector('.seat-fault'),
      stderr: li.querySelector('.seat-stderr'),
    });
  }
  // A page from a server (which gives it the site's top bar) speaks of the
  // site; a file opened offline of the command that made it.
  const served = /^https?:$/.test(location.protocol);
  const note = document.getElementById('stderr-note');
  if (!doc.stderr_log) {
    note.hidden = false;
    note.textContent = served
      ? 'What the bots wrote on stderr is not shown here: a program\'s stderr is for its owner only, who sees it by opening this game from their player page.'
      : 'No stderr was recorded with this replay: snakepit play --replay FILE writes FILE.stderr.jsonl for process bots, and this page shows it when that file lies next to the replay.';
  }

  function updatePanels(t) {
    const i = info(t);
    const st = stateAt(t);
    const log = (t > 0 && i.log) || [];
    for (let s = 0; s < seats; s++) {
      const el = seatEls[s];
      const alive = st.al ? st.al[s] : true;
      el.li.classList.toggle('dead', !alive);
      el.state.textContent = alive ? 'alive' : 'out';
      el.move.textContent = t > 0 ? i.m[s] : '—';
      el.score.textContent = st.sc && st.sc[s] !== undefined ? String(st.sc[s]) : '—';
      const entry = log.find((e) => e.seat === s);
      el.li.classList.toggle('faulted', !!(entry && entry.fault));
      el.fault.hidden = !(entry && entry.fault);
      el.fault.textContent = entry && entry.fault ? 'fault: ' + entry.fault : '';
      let text;
      let empty = false;
      if (!doc.stderr_log) {
        text = served ? 'stderr not shown' : 'stderr not recorded';
        empty = true;
      } else if (!entry || (entry.stderr.length === 0 && !entry.dropped)) {
        text = t > 0 ? 'nothing on stderr at this tick' : 'before the first tick';
        empty = true;
      } else {
        const lines = entry.stderr.slice();
        if (entry.dropped) lines.push('(' + entry.dropped + ' more lines dropped)');
        text = lines.join('\n');
      }
      el.stderr.textContent = text;
      el.stderr.classList.toggle('empty', empty);
    }
    document.getElementById('status').textContent = st.status.join(SEP);
    const events = document.getElementById('events');
    events.replaceChildren();
    const list = t > 0 ? i.ev || [] : [];
    for (const e of list) {
      const li = document.createElement('li');
      li.textContent = e;
      events.appendChild(li);
    }
    if (list.length === 0) {
      const li = document.createElement('li');
      li.className = 'none';
      li.textContent = t > 0 ? 'no events at this tick' : 'the game before its first tick';
      events.appendChild(li);
    }
  }

  // ---- Timeline marks: faults and seats leaving the game.

  (function marks() {
    const box = document.getElementById('marks');
    if (N === 0) return;
    let shown = 0;
    let prevAlive = doc.start.al || [];
    for (let t = 1; t <= N && shown < 600; t++) {
      const i = doc.ticks[t - 1];
      const fault = (i.log || []).some((e) => e.fault);
      const death = !!i.al && i.al.some((a, s) => prevAlive[s] && !a);
      prevAlive = i.al || prevAlive;
      if (!fault && !death) continue;
      const m = document.createElement('span');
      m.className = fault ? 'fault' : 'death';
      m.style.left = (100 * t) / N + '%';
      m.title = 'tick ' + t + (fault ? ': a fault' : ': a seat is out');
      box.appendChild(m);
      shown++;
    }
  })();

  // ---- Playback.

  const scrub = document.getElementById('scrub');
  const tickEl = document.getElementById('tick');
  const playBtn = document.getElementById('play');
  const speed = document.getElementById('speed');
  scrub.max = String(N);
  document.getElementById('ticks').textContent = String(N);
  document.getElementById('game-title').textContent = header.game + ' · seed ' + header.seed;
  document.getElementById('game-meta').textContent =
    header.players.map((p, s) => seatLetter(s) + ' ' + p).join('  ·  ') + '  ·  engine ' + header.engine;
  document.title = 'snakepit replay: ' + header.game + ' seed ' + header.seed;

  let cur = -1;
  let playing = false;
  let lastFrame = 0;
  let carry = 0;

  // Shows tick t; the address then says #t=t, unless `keepUrl` (the tick
  // came from the address, or the page just opened without one).
  function show(t, keepUrl) {
    t = Math.max(0, Math.min(N, Math.floor(Number(t)) || 0));
    const changed = t !== cur;
    cur = t;
    draw(t);
    updatePanels(t);
    updateFork(t);
    scrub.value = String(t);
    tickEl.textContent = String(t);
    if (changed && !keepUrl) {
      try {
        const keepSeat = mySeat !== null && !/[?&]seat=/.test(location.search);
        history.replaceState(null, '', '#t=' + t + (keepSeat ? '&seat=' + mySeat : ''));
      } catch (e) {
        // Some file:// setups refuse history changes; the page still works.
      }
    }
  }

  function setPlaying(on) {
    playing = on;
    playBtn.querySelector('.icon-play').toggleAttribute('hidden', on);
    playBtn.querySelector('.icon-pause').toggleAttribute('hidden', !on);
    playBtn.setAttribute('aria-label', on ? 'pause' : 'play');
    if (on) {
      if (cur >= N) show(0);
      lastFrame = performance.now();
      carry = 0;
      requestAnimationFrame(frame);
    }
  }
  function frame(now) {
    if (!playing) return;
    // A background tab gets no frames; it resumes where it was.
    carry += (Math.min(250, now - lastFrame) / 1000) * Number(speed.value);
    lastFrame = now;
    const steps = Math.floor(carry);
    if (steps > 0) {
      carry -= steps;
      show(Math.min(N, cur + steps));
      if (cur >= N) {
        setPlaying(false);
        return;
      }
    }
    requestAnimationFrame(frame);
  }

  function step(d) {
    setPlaying(false);
    show(cur + d);
  }
  document.getElementById('first').addEventListener('click', () => step(-cur));
  document.getElementById('back').addEventListener('click', () => step(-1));
  document.getElementById('forward').addEventListener('click', () => step(1));
  document.getElementById('last').addEventListener('click', () => step(N - cur));
  playBtn.addEventListener('click', () => setPlaying(!playing));
  scrub.addEventListener('input', () => {
    setPlaying(false);
    show(scrub.value);
  });
  document.getElementById('show-text').addEventListener('change', (e) => {
    boardText.hidden = !e.target.checked;
    frameBox.hidden = e.target.checked;
    show(cur);
  });

  // Keys typed into a field or a list are theirs, not the player's.
  const ownKeys = (el) => el instanceof HTMLSelectElement || (el instanceof HTMLInputElement && el.type === 'text');
  document.addEventListener('keydown', (e) => {
    if (ownKeys(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
    const by = e.shiftKey ? 10 : 1;
    if (e.key === ' ') setPlaying(!playing);
    else if (e.key === 'ArrowLeft') step(-by);
    else if (e.key === 'ArrowRight') step(by);
    else if (e.key === 'Home') step(-cur);
    else if (e.key === 'End') step(N - cur);
    else return;
    e.preventDefault();
  });
  // A focused button would also be clicked by the space bar's keyup.
  document.addEventListener('keyup', (e) => {
    if (e.key === ' ' && !ownKeys(e.target)) e.preventDefault();
  });

  function hashTick() {
    const m = /(?:^#|&)t=(\d+)/.exec(location.hash);
    return m ? Number(m[1]) : null;
  }
  window.addEventListener('hashchange', () => {
    const t = hashTick();
    if (t !== null && t !== cur) {
      setPlaying(false);
      show(t, true);
    }
  });

  // ---- Fork at this tick: another bot in one seat from the next tick on.
  //
  // The page shows the state after tick t; the fork plays ticks 1..t as
  // recorded, so the new bot's first tick is t + 1. Offline the page
  // shows the command that does it; on the server it asks the server.

  const FORK_POLL_MS = 500;
  const FORK_WAIT_MS = 5 * 60 * 1000;
  const fork = doc.fork && (doc.fork.mode === 'command' || doc.fork.mode === 'server') ? doc.fork : null;
  const forkEls = {
    box: document.getElementById('fork'),
    explain: document.getElementById('fork-explain'),
    seat: document.getElementById('fork-seat'),
    slot: document.getElementById('fork-bot-slot'),
    command: document.getElementById('fork-command'),
    copied: document.getElementById('fork-copied'),
    go: document.getElementById('fork-go'),
    state: document.getElementById('fork-state'),
    link: document.getElementById('fork-link'),
    bot: null,
  };

  // A word the shell reads as itself, or the word in single quotes (a
  // single quote inside becomes '\'').
  function shellWord(s, always) {
    if (!always && /^[A-Za-z0-9_@%+=:,./-]+$/.test(s)) return s;
    return "'" + s.replace(/'/g, "'\\''") + "'";
  }
  const forkTick = () => Math.max(0, cur) + 1;
  const forkSeat = () => Number(forkEls.seat.value) || 0;
  function forkCommand() {
    const spec = forkEls.bot.value.trim() || 'SPEC';
    return 'snakepit replay ' + shellWord(String(fork.file), true) + ' --from-tick ' + forkTick() +
      ' --bot ' + shellWord(forkSeat() + '=' + spec, false);
  }

  function updateFork(t) {
    if (!fork) return;
    const seat = forkSeat();
    const who = seatLetter(seat) + ' (' + header.players[seat] + ')';
    forkEls.explain.textContent = t === 0
      ? 'The whole game again with another bot in seat ' + who + ' from tick 1.'
      : 'Ticks 1 to ' + t + ' as recorded, then another bot in seat ' + who + ' from tick ' + (t + 1) + '.';
    if (fork.mode === 'command') {
      forkEls.command.textContent = forkCommand();
      forkEls.copied.textContent = '';
    }
  }

  function selectText(el) {
    const range = document.createRange();
    range.selectNodeContents(el);
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  }
  async function copyCommand() {
    const text = forkEls.command.textContent;
    try {
      await navigator.clipboard.writeText(text);
      forkEls.copied.textContent = 'copied';
      return;
    } catch (e) {
      // No clipboard for this page (file:// in some browsers, no
      // permission): select the text for the user to copy.
    }
    selectText(forkEls.command);
    let copied = false;
    try {
      copied = document.execCommand('copy');
    } catch (e) {
      copied = false;
    }
    forkEls.copied.textContent = copied ? 'copied' : 'selected: press Ctrl+C to copy';
  }

  function setForkState(state, text) {
    forkEls.state.dataset.state = state;
    forkEls.state.textContent = text;
  }
  const FORK_STATES = {
    queued: 'queued: waiting for a worker',
    running: 'running',
    done: 'done',
    failed: 'failed',
  };

  // What an answer says went wrong: its {"error": text}, or its status.
  async function answerOf(res) {
    let data = null;
    try {
      data = await res.json();
    } catch (e) {
      data = null;
    }
    if (!res.ok) {
      const why = data && typeof data.error === 'string' ? data.error : 'the server answered ' + res.status;
      throw new Error(why);
    }
    if (!data || typeof data !== 'object') throw new Error('the server answered no JSON object');
    return data;
  }

  let forkBusy = false;
  function forkDone(ok) {
    forkBusy = false;
    forkEls.go.disabled = false;
    forkEls.seat.disabled = false;
    forkEls.bot.disabled = false;
    return ok;
  }

  async function playFork() {
    if (forkBusy) return;
    forkBusy = true;
    forkEls.go.disabled = true;
    forkEls.seat.disabled = true;
    forkEls.bot.disabled = true;
    forkEls.link.hidden = true;
    const request = { from_tick: forkTick(), seat: forkSeat(), bot: forkEls.bot.value };
    setForkState('asking', 'asking the server…');
    let status;
    try {
      const res = await fetch(String(fork.endpoint), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(request),
      });
      const data = await answerOf(res);
      if (typeof data.status !== 'string') throw new Error('the server gave no status address');
      status = data.status;
    } catch (e) {
      setForkState('error', 'error: ' + e.message);
      return forkDone(false);
    }
    setForkState('queued', FORK_STATES.queued);
    const end = Date.now() + FORK_WAIT_MS;
    for (;;) {
      await new Promise((r) => setTimeout(r, FORK_POLL_MS));
      if (Date.now() > end) {
        setForkState('error', 'no result after 5 minutes: the fork may still finish later');
        return forkDone(false);
      }
      let res;
      try {
        res = await fetch(status, { headers: { accept: 'application/json' } });
      } catch (e) {
        // The network, not the server, failed: ask again next time.
        setForkState('retrying', 'the server cannot be reached: trying again');
        continue;
      }
      let data;
      try {
        data = await answerOf(res);
      } catch (e) {
        setForkState('error', 'error: ' + e.message);
        return forkDone(false);
      }
      const state = String(data.state);
      if (state === 'failed') {
        setForkState('failed', 'failed: ' + (typeof data.error === 'string' ? data.error : 'no reason given'));
        return forkDone(false);
      }
      if (state === 'done') {
        if (!Number.isSafeInteger(data.replay) || data.replay < 0) {
          setForkState('error', 'error: the fork is done but its replay is not kept');
          return forkDone(false);
        }
        // The fork opens where it parts from this game: the last tick both
        // share, as this page showed it.
        const href = new URL('/replays/' + data.replay + '#t=' + (request.from_tick - 1), location.href).href;
        setForkState('done', 'done: replay ' + data.replay);
        forkEls.link.href = href;
        forkEls.link.textContent = 'the fork: replay ' + data.replay;
        forkEls.link.hidden = false;
        forkDone(true);
        location.assign(href);
        return true;
      }
      setForkState(state, FORK_STATES[state] || state);
    }
  }

  (function setUpFork() {
    if (!fork) return;
    for (let s = 0; s < seats; s++) {
      const o = document.createElement('option');
      o.value = String(s);
      o.textContent = seatLetter(s) + ' · ' + header.players[s];
      forkEls.seat.appendChild(o);
    }
    let bot;
    if (fork.mode === 'command') {
      bot = document.createElement('input');
      bot.type = 'text';
      bot.placeholder = 'builtin:random, or a command line';
      bot.autocomplete = 'off';
      bot.spellcheck = false;
      document.getElementById('fork-command-box').hidden = false;
      document.getElementById('fork-copy').addEventListener('click', copyCommand);
    } else {
      bot = document.createElement('select');
      for (const b of Array.isArray(fork.bots) ? fork.bots : []) {
        const o = document.createElement('option');
        o.value = String(b);
        o.textContent = String(b);
        bot.appendChild(o);
      }
      document.getElementById('fork-server-box').hidden = false;
      if (bot.options.length === 0) {
        forkEls.go.disabled = true;
        setForkState('error', 'the server offers no bot for this game');
      }
      forkEls.go.addEventListener('click', playFork);
    }
    bot.id = 'fork-bot';
    forkEls.slot.appendChild(bot);
    forkEls.bot = bot;
    forkEls.seat.addEventListener('change', () => updateFork(cur));
    bot.addEventListener('input', () => updateFork(cur));
    bot.addEventListener('change', () => updateFork(cur));
    forkEls.box.hidden = false;
  })();

  const first = hashTick();
  show(first === null ? 0 : first, first === null || first <= N);
  // A game opens playing, as a video does; a link to one tick opens there.
  if (first === null && N > 0) setPlaying(true);

  // For tests and the console: the tick shown and the board's text.
  window.__replayViewer = {
    ticks: N,
    tick: () => cur,
    playing: () => playing,
    rows: () => rowsOf(stateAt(cur).board),
    seatColor,
    mySeat,
    // The frame the shared board renderer draws, and how often it drew.
    frame: () => view.frame,
    draws: () => view.draws,
    cellCenter: (x, y) => view.cellCenter(x, y),
    // How long the last tick's move slides (0: drawn at once).
    slideMs: () => view.animMs,
  };
})();
