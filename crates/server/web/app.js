// Shared helpers for every page of the snakepit web UI.
//
// Rule for all page scripts: text that comes from the server (names, events,
// notes, URLs) reaches the DOM only through textContent, text nodes or DOM
// properties, never as markup. `h` below is the one way pages build
// elements, and it has no way to take HTML.
'use strict';

(function () {
  const SP = (window.Snakepit = window.Snakepit || {});

  /** Appends children: strings and numbers become text nodes. */
  function append(el, kids) {
    for (const kid of kids) {
      if (kid == null || kid === false) continue;
      if (Array.isArray(kid)) append(el, kid);
      else if (kid instanceof Node) el.appendChild(kid);
      else el.appendChild(document.createTextNode(String(kid)));
    }
  }

  /** Only same-site paths and http(s) URLs become links. */
  SP.safeHref = function (url) {
    const s = String(url || '');
    if (/^\/(?!\/)/.test(s)) return s;
    if (/^https?:\/\//i.test(s)) return s;
    return '#';
  };

  /**
   * Builds an element. `props`: `class`, `text`, `href` (checked by
   * safeHref), `dataset`, `on<event>` handlers, and plain attributes.
   */
  SP.h = function (tag, props, ...kids) {
    const el = document.createElement(tag);
    if (props) {
      for (const [k, v] of Object.entries(props)) {
        if (v == null || v === false) continue;
        if (k === 'class') el.className = v;
        else if (k === 'text') el.textContent = String(v);
        else if (k === 'href') el.href = SP.safeHref(v);
        else if (k === 'dataset') Object.assign(el.dataset, v);
        else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
        else if (k === 'style') throw new Error('inline styles are blocked by the CSP');
        else el.setAttribute(k, v === true ? '' : String(v));
      }
    }
    append(el, kids);
    return el;
  };

  /** Replaces an element's children. */
  SP.fill = function (el, ...kids) {
    el.replaceChildren();
    append(el, kids);
    return el;
  };

  SP.$ = (id) => document.getElementById(id);

  /** Shows a message box (text only), or hides it when `text` is empty. */
  SP.say = function (el, text) {
    if (!el) return;
    el.textContent = text || '';
    el.classList.toggle('hidden', !text);
  };

  /** Sets a colour swatch from a server colour (CSSOM, allowed by the CSP). */
  SP.swatch = function (el, color) {
    el.style.backgroundColor = '';
    if (color) el.style.backgroundColor = color;
    return el;
  };

  class ApiError extends Error {
    constructor(message, status) {
      super(message);
      this.status = status;
    }
  }
  SP.ApiError = ApiError;

  /**
   * Calls the JSON API. Resolves with the parsed body; rejects with an
   * ApiError carrying the server's `{error}` text when there is one.
   */
  SP.api = async function (path, opts) {
    const o = opts || {};
    const headers = { Accept: 'application/json' };
    if (o.body !== undefined) headers['Content-Type'] = 'application/json';
    if (o.token) headers.Authorization = 'Bearer ' + o.token;
    let res;
    try {
      res = await fetch(path, {
        method: o.method || (o.body !== undefined ? 'POST' : 'GET'),
        headers,
        body: o.body !== undefined ? JSON.stringify(o.body) : undefined,
        cache: 'no-store',
      });
    } catch (e) {
      throw new ApiError('cannot reach the server', 0);
    }
    const text = await res.text();
    let data = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch (e) {
      data = null;
    }
    if (!res.ok) {
      const msg = data && typeof data.error === 'string' ? data.error : text.trim() || res.status + ' ' + res.statusText;
      throw new ApiError(msg, res.status);
    }
    return data;
  };

  /**
   * Runs `fn` now and then every `ms` after each run finishes; skips runs
   * while the tab is hidden and catches up when it shows again.
   */
  SP.poll = function (fn, ms) {
    let timer = null;
    let running = false;
    // A server that is down fails every run: say so once, not each time.
    let failing = false;
    async function run() {
      clearTimeout(timer);
      if (running) return;
      if (!document.hidden) {
        running = true;
        try {
          await fn();
          failing = false;
        } catch (e) {
          if (!failing) console.warn((fn.name || 'poll') + ': ' + (e && e.message ? e.message : e));
          failing = true;
        }
        running = false;
      }
      timer = setTimeout(run, ms);
    }
    document.addEventListener('visibilitychange', () => {
      if (!document.hidden) run();
    });
    run();
    return { now: run };
  };

  /** `ws://` or `wss://` URL for a path on this server. */
  SP.wsUrl = function (path) {
    return (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + path;
  };

  /**
   * A WebSocket that reconnects with backoff. `on.message(obj)` gets each
   * JSON message; `on.status(state, info)` hears 'connecting', 'open',
   * 'retry' (info.delay ms, info.opened, info.event) and 'stopped';
   * `on.retry(closeEvent)` may return false to stop reconnecting.
   */
  SP.live = function (url, on) {
    let ws = null;
    let attempt = 0;
    let stopped = false;
    let timer = null;
    function open() {
      if (stopped) return;
      on.status && on.status('connecting');
      let opened = false;
      try {
        ws = new WebSocket(url);
      } catch (e) {
        schedule(false, null);
        return;
      }
      ws.onopen = () => {
        opened = true;
        attempt = 0;
        on.status && on.status('open');
      };
      ws.onmessage = (ev) => {
        if (typeof ev.data !== 'string') return;
        let msg;
        try {
          msg = JSON.parse(ev.data);
        } catch (e) {
          return;
        }
        if (msg && typeof msg === 'object') on.message(msg);
      };
      ws.onclose = (ev) => {
        ws = null;
        if (stopped) return;
        if (on.retry && on.retry(ev, opened) === false) {
          stopped = true;
          on.status && on.status('stopped', { event: ev, opened });
          return;
        }
        schedule(opened, ev);
      };
    }
    function schedule(opened, ev) {
      attempt += 1;
      const base = Math.min(15000, 400 * Math.pow(2, Math.min(attempt - 1, 6)));
      const delay = Math.round(base * (0.75 + Math.random() * 0.5));
      on.status && on.status('retry', { delay, opened, event: ev, attempt });
      timer = setTimeout(open, delay);
    }
    open();
    return {
      send(text) {
        if (ws && ws.readyState === WebSocket.OPEN) {
          ws.send(text);
          return true;
        }
        return false;
      },
      isOpen() {
        return !!ws && ws.readyState === WebSocket.OPEN;
      },
      stop() {
        stopped = true;
        clearTimeout(timer);
        if (ws) ws.close(1000);
      },
    };
  };

  /** Renders connection state into a small status element. */
  SP.connStatus = function (el, state, info) {
    if (!el) return;
    const dot = SP.h('span', { class: 'dot' + (state === 'open' ? ' on' : '') });
    let text;
    if (state === 'open') text = 'live';
    else if (state === 'connecting') text = 'connecting…';
    else if (state === 'retry') text = 'reconnecting in ' + Math.max(1, Math.round(info.delay / 1000)) + ' s';
    else text = 'disconnected';
    SP.fill(el, dot, text);
  };

  /** Copies text to the clipboard, falling back to selecting an input. */
  SP.copy = async function (text, input) {
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(text);
        return true;
      }
    } catch (e) {
      /* fall through */
    }
    if (input) {
      input.focus();
      input.select();
      try {
        return document.execCommand('copy');
      } catch (e) {
        return false;
      }
    }
    return false;
  };

  /**
   * How a kept game ended, from its stored result: "won by ann", "shared
   * by ann, bob", "draw", "not played: why". Seats are named by the labels
   * the result carries (older results have none: "seat 2").
   */
  SP.verdict = function (result) {
    if (!result) return '';
    if (result.error) return 'not played: ' + result.error;
    const places = Array.isArray(result.places) ? result.places : [];
    const labels = Array.isArray(result.labels) ? result.labels : [];
    const winners = places.map((p, i) => (p === 1 ? i : -1)).filter((i) => i >= 0);
    if (places.length < 2 || winners.length === 0) return '';
    if (winners.length === places.length) return 'draw';
    const name = (i) => labels[i] || 'seat ' + (i + 1);
    return (winners.length > 1 ? 'shared by ' : 'won by ') + winners.map(name).join(', ');
  };

  /** "40 s ago", "5 min ago", "3 h ago", then the date, for a time in ms. */
  SP.ago = function (ms) {
    if (typeof ms !== 'number') return '';
    const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
    if (s < 60) return s + ' s ago';
    if (s < 3600) return Math.floor(s / 60) + ' min ago';
    if (s < 86400) return Math.floor(s / 3600) + ' h ago';
    return new Date(ms).toISOString().slice(0, 10);
  };

  /** A game's name as people know it, from the id the API uses. */
  const GAME_NAMES = { snakebattle: 'SnakeBattle', hex: 'Hex', carrots: 'CodeCarrots', duel: 'Duel', multisnake: 'Multisnake' };
  SP.gameName = (g) => (Object.prototype.hasOwnProperty.call(GAME_NAMES, g) ? GAME_NAMES[g] : String(g || ''));

  /** "1 s" / "250 ms" for a tick period. */
  SP.ms = function (ms) {
    if (typeof ms !== 'number') return '–';
    return ms >= 1000 && ms % 1000 === 0 ? ms / 1000 + ' s' : ms + ' ms';
  };
})();
