// The lobby, /: the rooms (refreshed every few seconds) and registration.
'use strict';

(function () {
  const SP = window.Snakepit;
  const $ = SP.$;
  const h = SP.h;

  function seatItem(seat) {
    if (!seat.name) return h('li', { class: 'empty-seat' }, h('span', { class: 'dot' }), h('span', { class: 'name', text: 'free seat' }));
    let kind;
    if (seat.bot) kind = h('span', { class: 'badge', text: 'bot' });
    else if (seat.connected) kind = h('span', { class: 'badge ok', title: 'a bot client is connected', text: 'online' });
    else kind = h('span', { class: 'badge', title: 'no bot client connected', text: 'player' });
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
    const seats = (r.seats || []).slice().sort((a, b) => (b.name ? 1 : 0) - (a.name ? 1 : 0) || b.score - a.score);
    return h(
      'article',
      { class: 'room-card', dataset: { room: r.name } },
      h('div', { class: 'title' }, h('a', { href, text: r.name }), state),
      h(
        'div',
        { class: 'meta' },
        h('span', { text: r.game }),
        h('span', { text: 'round ' + r.round }),
        h('span', { text: 'tick ' + r.tick }),
        h('span', { text: SP.ms(r.tick_ms) + ' / tick' }),
        h('span', { title: 'seats that are empty or held by a built-in bot', text: r.free_seats + (r.free_seats === 1 ? ' open seat' : ' open seats') })
      ),
      h('ul', { class: 'seats' }, seats.map(seatItem)),
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
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const input = $('register-name');
    const btn = form.querySelector('button');
    btn.disabled = true;
    SP.say($('register-error'), '');
    try {
      const p = await SP.api('/api/register', { body: { name: input.value } });
      $('register-as').textContent = p.name;
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
