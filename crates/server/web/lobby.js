// The lobby, /: the rooms (refreshed every few seconds) and registration.
'use strict';

(function () {
  const SP = window.Snakepit;
  const $ = SP.$;
  const h = SP.h;
  const gameName = SP.gameName;

  function seatItem(seat) {
    if (!seat.name) return h('li', { class: 'empty-seat' }, h('span', { class: 'dot' }), h('span', { class: 'name', text: 'empty seat' }));
    let kind;
    if (seat.bot) kind = h('span', { class: 'badge', text: 'bot' });
    else if (seat.connected) kind = h('span', { class: 'badge ok', title: 'a bot or a saved program plays this seat', text: 'online' });
    else kind = h('span', { class: 'badge', title: 'no bot or program is connected for this player', text: 'offline' });
    return h(
      'li',
      null,
      h('span', { class: 'dot' + (seat.bot || seat.connected ? ' on' : '') }),
      h('span', { class: 'name', title: seat.name, text: seat.name }),
      kind,
      h('span', { class: 'score', title: 'score in this room', text: String(seat.score) })
    );
  }

  function roomCard(r) {
    const href = '/room/' + encodeURIComponent(r.name);
    const state = r.paused ? h('span', { class: 'badge info', text: 'paused' }) : h('span', { class: 'badge ok', text: 'live' });
    const all = r.seats || [];
    const taken = all.filter((s) => s.name).sort((a, b) => b.score - a.score);
    const empty = all.length - taken.length;
    // Empty seats collapse into one line (a Hex field has eleven).
    const seats = taken.map(seatItem);
    if (empty === 1) seats.push(seatItem({}));
    else if (empty > 1) seats.push(h('li', { class: 'empty-seat' }, h('span', { class: 'dot' }), h('span', { class: 'name', text: empty + ' empty seats' })));
    return h(
      'article',
      { class: 'room-card', dataset: { room: r.name } },
      h(
        'div',
        { class: 'title' },
        h('a', { href, text: r.name }),
        h('span', { class: 'grow' }),
        h('span', { class: 'badge game', dataset: { game: String(r.game || '') }, text: gameName(r.game) }),
        state
      ),
      h(
        'div',
        { class: 'meta' },
        r.game === 'hex' || r.game === 'carrots' ? null : h('span', { text: (r.game === 'snakebattle' ? 'round ' : 'game ') + r.round }),
        h('span', { text: 'room tick ' + r.tick }),
        h('span', { text: SP.ms(r.tick_ms) + ' / tick' }),
        h('span', { title: 'seats a player can take: empty or held by a built-in bot', text: r.free_seats + (r.free_seats === 1 ? ' seat to take' : ' seats to take') })
      ),
      h('ul', { class: 'seats' }, seats),
      h('div', { class: 'row' }, h('a', { class: 'button', href, text: 'Watch' }))
    );
  }

  async function loadRooms() {
    try {
      const rooms = await SP.api('/api/rooms');
      SP.say($('rooms-error'), '');
      const list = Array.isArray(rooms) ? rooms : [];
      if (!list.length) SP.fill($('rooms'), h('p', { class: 'empty', text: 'No rooms yet. One opens when the first player connects.' }));
      else SP.fill($('rooms'), list.map(roomCard));
      SP.fill($('rooms-status'), h('span', { class: 'dot on' }), 'updated ' + new Date().toLocaleTimeString());
    } catch (e) {
      SP.say($('rooms-error'), 'Could not load the rooms: ' + e.message);
      SP.fill($('rooms-status'), h('span', { class: 'dot' }), 'offline');
    }
  }
  SP.poll(loadRooms, 3000);

  const form = $('register-form');
  // ?game=hex preselects a game.
  const wanted = new URLSearchParams(location.search).get('game');
  for (const r of form.querySelectorAll('input[name="game"]')) if (r.value === wanted) r.checked = true;
  const chosenGame = () => {
    const r = form.querySelector('input[name="game"]:checked');
    return r ? r.value : 'snakebattle';
  };
  // The contest may offer fewer games, or let only the organiser add
  // players: the form shows what the server allows.
  SP.api('/api/server')
    .then((s) => {
      const offered = Array.isArray(s && s.games) ? s.games : [];
      const radios = Array.from(form.querySelectorAll('input[name="game"]'));
      for (const r of radios) r.closest('label').classList.toggle('hidden', !offered.includes(r.value));
      const shown = radios.filter((r) => offered.includes(r.value));
      if (shown.length && !shown.some((r) => r.checked)) shown[0].checked = true;
      $('register-game').classList.toggle('hidden', shown.length < 2);
      const closed = s && s.registration === 'closed';
      form.classList.toggle('hidden', closed);
      $('register-closed').classList.toggle('hidden', !closed);
    })
    .catch(() => {
      // An older server without /api/server: the form as it is.
    });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const input = $('register-name');
    const btn = form.querySelector('button[type="submit"]');
    btn.disabled = true;
    SP.say($('register-error'), '');
    // The answer to an earlier sign-up must not sit under this one's error.
    $('register-result').classList.add('hidden');
    try {
      const p = await SP.api('/api/register', { body: { name: input.value, game: chosenGame() } });
      $('register-as').textContent = p.name;
      $('register-for').textContent = gameName(p.game || chosenGame());
      const a = $('register-url');
      a.textContent = p.url;
      a.href = SP.safeHref(p.url);
      $('register-result').classList.remove('hidden');
      $('register-copied').textContent = '';
      input.value = '';
    } catch (err) {
      SP.say($('register-error'), err.message);
    } finally {
      btn.disabled = false;
    }
  });
  $('register-copy').addEventListener('click', async () => {
    const ok = await SP.copy($('register-url').textContent, null);
    $('register-copied').textContent = ok ? 'copied' : 'select the link text to copy it';
  });
})();
