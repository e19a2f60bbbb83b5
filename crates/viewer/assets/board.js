// The board: draws spectator frames on a canvas, and the side panel pieces
// (phase line, player list, event log, legend) shared by the room and
// player pages. The one renderer of a board: the replay page (and the
// self-contained `snakepit replay --html` file, which embeds this file)
// builds the same frames from a replay and draws them with it too.
//
// Frames come from the server as `{"type":"frame","data":Frame}` (see
// crates/protocol/src/spectator.rs). `[0, 0]` is the top-left cell.
// Between two consecutive ticks the heads and tails slide for a short time
// (at most 60% of the tick period), so the picture is never behind the
// latest frame by more than that.
//
// Hex frames (`game: "hex"`) have no snakes but `pieces` as `[x, y, seat]`
// and `players` with each seat's colour; the view draws them as tiles in
// their owner's colour, pops new pieces in, flips captured ones and, on a
// player's page, shows the selected piece, its legal targets and the move
// just sent (see `setSelection`, `setHover`, `setPending`).
//
// The stdin/stdout arenas (`carrots`, `duel`, `multisnake`), and
// Battlesnake in replays, send `width * height` cells (`.` free, `#` wall,
// `o` apple, `+`/`-` signs, `~` hazard) on a
// board that need not be square; it is drawn centred, each snake in its
// seat's colour with a head that looks the way it goes, and a finished
// game's `result` across the board until the next one starts.
'use strict';

(function () {
  const SP = (window.Snakepit = window.Snakepit || {});

  const DIRS = { up: [0, -1], right: [1, 0], down: [0, 1], left: [-1, 0] };
  const THEME = {
    bg: '#0c1119',
    bgAlt: '#0e141e',
    grid: 'rgba(255,255,255,0.025)',
    wallMortar: '#161d2b',
    wall: '#2a3550',
    wallTop: '#3a4869',
    wallShade: '#1e273b',
    floor: '#122029',
    floorLine: 'rgba(45, 212, 191, 0.45)',
    dead: '#6b7280',
    fury: '#ff2d55',
    fly: '#38bdf8',
    hexBg: '#080c13',
    hexTile: '#101826',
    hexTileAlt: '#0f1623',
    hexTileTop: 'rgba(255,255,255,0.035)',
    hazard: 'rgba(168, 85, 247, 0.3)',
  };

  /**
   * Colours for seats that have none in the frame (cannot normally happen):
   * the server's own, in its order, as the replay viewer has them too.
   */
  const SEAT_COLORS = ['#e6194b', '#3cb44b', '#ffe119', '#4363d8', '#f58231', '#911eb4', '#46f0f0', '#f032e6', '#bcf60c', '#fabebe',
    '#008080', '#e6beff', '#9a6324', '#fffac8', '#800000'];

  const GRID_GAMES = { carrots: 'CodeCarrots', duel: 'Duel', multisnake: 'Multisnake', battlesnake: 'Battlesnake' };

  /** A frame of a stdin/stdout arena (a W x H grid). */
  function isGrid(f) {
    return !!f && Object.prototype.hasOwnProperty.call(GRID_GAMES, f.game);
  }

  function isHex(f) {
    return !!f && f.game === 'hex';
  }

  /**
   * What changed between two Hex frames: `changed` maps "x,y" to 'new' (a
   * piece on a cell that was empty) or to the previous owner's seat (a
   * captured piece); `gone` lists the pieces that left their cell.
   */
  function hexChanges(prev, frame) {
    const before = new Map();
    for (const p of prev.pieces || []) before.set(p[0] + ',' + p[1], p[2]);
    const changed = new Map();
    const here = new Set();
    for (const p of frame.pieces) {
      const k = p[0] + ',' + p[1];
      here.add(k);
      if (!before.has(k)) changed.set(k, 'new');
      else if (before.get(k) !== p[2]) changed.set(k, before.get(k));
    }
    const gone = (prev.pieces || []).filter((p) => !here.has(p[0] + ',' + p[1]));
    const colors = new Map();
    for (const pl of prev.players || []) colors.set(pl.seat, pl.color);
    return { changed, gone, colors };
  }

  /** A seat's colour in a frame. */
  function seatColor(f, seat, fallback) {
    const p = (f.players || []).find((x) => x.seat === seat);
    if (p && p.color) return p.color;
    if (fallback && fallback.has(seat)) return fallback.get(seat);
    return SEAT_COLORS[((seat % SEAT_COLORS.length) + SEAT_COLORS.length) % SEAT_COLORS.length];
  }

  function easeOutBack(t) {
    const k = 1.9;
    const u = t - 1;
    return 1 + (k + 1) * u * u * u + k * u * u;
  }

  function adjacent(a, b) {
    return !!a && !!b && Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) === 1;
  }
  function same(a, b) {
    return !!a && !!b && a[0] === b[0] && a[1] === b[1];
  }
  function lerp(a, b, t) {
    return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
  }

  /** Splits a frame's `cells` into one glyph per cell. */
  function glyphs(frame) {
    const arr = Array.from(frame.cells || '');
    return arr.length === frame.size * frame.size ? arr : null;
  }

  /**
   * Points to draw for a snake: its cells, with the head and the tail slid
   * between the previous frame and this one by `t` (0..1).
   */
  function snakePoints(body, prevBody, t) {
    const pts = body.map((c) => [c[0], c[1]]);
    if (!prevBody || !prevBody.length || t >= 1 || body.length < 2) return pts;
    const oh = prevBody[0];
    // A normal step: the old head is now the neck.
    if (!(adjacent(oh, body[0]) && same(body[1], oh))) return pts;
    pts[0] = lerp(oh, body[0], t);
    const ot = prevBody[prevBody.length - 1];
    const nt = body[body.length - 1];
    if (adjacent(ot, nt) && prevBody.length >= body.length) pts.push(lerp(ot, nt, t));
    return pts;
  }

  class BoardView {
    /**
     * `canvas` must sit in a container of the board's shape (see
     * `fitShape`); it follows its size. `opts.reserveHeightPx` is the
     * window height the page keeps for other things above and below the
     * board (150 px unless said).
     */
    constructor(canvas, opts) {
      this.canvas = canvas;
      this.reserveHeightPx = (opts && opts.reserveHeightPx) || 150;
      this.ctx = canvas.getContext('2d');
      this.frame = null;
      this.prev = null;
      this.animStart = 0;
      this.animMs = 0;
      this.mySeat = null;
      this.raf = 0;
      this.pulseTimer = 0;
      this.cssSize = 0;
      this.cssW = 0;
      this.cssH = 0;
      this.shape = '';
      this.dpr = 1;
      this.terrain = null;
      this.terrainKey = '';
      this.draws = 0;
      this.message = 'connecting…';
      // Hex: what changed since the previous frame, and the player's UI.
      this.hexAnim = null;
      this.selection = null;
      this.hover = null;
      this.pending = null;
      const ro = new ResizeObserver(() => this.resize());
      ro.observe(canvas.parentElement);
      this.resize();
    }

    resize() {
      // The container's content box is the canvas's displayed size.
      // A board that is not square (CodeCarrots' 120x80) has a frame of
      // its shape (see `fitShape`), so the canvas need not be square.
      const box = this.canvas.parentElement;
      const cssW = Math.max(1, Math.floor(box.clientWidth));
      const cssH = Math.max(1, Math.floor(box.clientHeight || box.clientWidth));
      const css = Math.min(cssW, cssH);
      const dpr = window.devicePixelRatio || 1;
      if (cssW === this.cssW && cssH === this.cssH && dpr === this.dpr) return;
      this.cssSize = css;
      this.cssW = cssW;
      this.cssH = cssH;
      this.dpr = dpr;
      this.canvas.width = Math.round(cssW * dpr);
      this.canvas.height = Math.round(cssH * dpr);
      this.terrainKey = '';
      this.kick();
    }

    /**
     * Gives the board's frame the board's shape, so that a wide board fills
     * the width it has (and a square one the height) without bands.
     */
    fitShape(frame) {
      const grid = isGrid(frame) && frame.width > 0 && frame.height > 0;
      const shape = grid ? frame.width + ' / ' + frame.height : '1 / 1';
      if (shape === this.shape) return;
      this.shape = shape;
      const box = this.canvas.parentElement;
      const ratio = grid ? frame.width / frame.height : 1;
      const maxWidth = 'min(100%, calc((100vh - ' + this.reserveHeightPx + 'px) * ' + ratio.toFixed(4) + '))';
      box.style.aspectRatio = shape;
      box.style.maxWidth = maxWidth;
      // The board's head, result and notices line up with it.
      const col = box.parentElement;
      if (col) for (const el of col.querySelectorAll(':scope > .board-head, :scope > .result, :scope > .msg, :scope > .legend')) el.style.maxWidth = maxWidth;
    }

    /** Highlights the snake in this seat (the player's own). */
    setMySeat(seat) {
      if (this.mySeat !== seat) {
        this.mySeat = seat;
        this.kick();
      }
    }

    /** Shows a text instead of the board (before the first frame). */
    setMessage(text) {
      this.message = text;
      this.kick();
    }

    setFrame(frame) {
      if (!frame || typeof frame.size !== 'number') return;
      if (!Array.isArray(frame.snakes)) frame.snakes = [];
      if (!Array.isArray(frame.pieces)) frame.pieces = [];
      if (!Array.isArray(frame.players)) frame.players = [];
      this.fitShape(frame);
      const prev = this.frame;
      const consecutive = prev && prev.size === frame.size && prev.room === frame.room && frame.tick === prev.tick + 1;
      this.prev = consecutive ? prev : null;
      this.frame = frame;
      this.animStart = performance.now();
      if (isGrid(frame)) {
        // Arena boards wrap (Multisnake) and can be large: no sliding.
        this.hexAnim = null;
        this.animMs = 0;
      } else if (isHex(frame)) {
        this.hexAnim = consecutive && isHex(prev) ? hexChanges(prev, frame) : null;
        this.animMs = this.hexAnim && !frame.paused ? Math.min(320, Math.max(0, (frame.tick_ms || 0) * 0.85)) : 0;
      } else {
        this.hexAnim = null;
        this.animMs = consecutive && !frame.paused ? Math.min(220, Math.max(0, (frame.tick_ms || 0) * 0.6)) : 0;
      }
      this.kick();
    }

    /**
     * Hex: the selected piece `{from: [x, y], targets: [{x, y, jump}]}` of
     * the player's own seat, or null.
     */
    setSelection(sel) {
      this.selection = sel || null;
      this.kick();
    }

    /** Hex: the cell under the mouse, `[x, y]` or null. */
    setHover(cell) {
      const old = this.hover;
      if ((old && cell && old[0] === cell[0] && old[1] === cell[1]) || (!old && !cell)) return;
      this.hover = cell || null;
      this.kick();
    }

    /** Hex: a move sent this tick, `{from: [x, y], to: [x, y], jump}`, or null. */
    setPending(p) {
      this.pending = p || null;
      this.kick();
    }

    /** The cell `[x, y]` under a point in client (CSS viewport) pixels, or null. */
    cellAt(clientX, clientY) {
      const f = this.frame;
      if (!f || !f.size || isGrid(f)) return null;
      const r = this.canvas.getBoundingClientRect();
      if (!r.width || !r.height) return null;
      const x = Math.floor(((clientX - r.left) / r.width) * f.size);
      const y = Math.floor(((clientY - r.top) / r.height) * f.size);
      return x >= 0 && y >= 0 && x < f.size && y < f.size ? [x, y] : null;
    }

    /** The centre of cell `[x, y]` in client pixels (for the browser tests). */
    cellCenter(x, y) {
      const f = this.frame;
      const r = this.canvas.getBoundingClientRect();
      if (isGrid(f) && f.width > 0 && f.height > 0) {
        // Drawn centred at the largest whole cell that fits (see drawGrid).
        const c = Math.min(r.width / f.width, r.height / f.height);
        const ox = (r.width - c * f.width) / 2;
        const oy = (r.height - c * f.height) / 2;
        return { x: r.left + ox + (x + 0.5) * c, y: r.top + oy + (y + 0.5) * c, cell: c };
      }
      const n = (f && f.size) || 1;
      return { x: r.left + ((x + 0.5) * r.width) / n, y: r.top + ((y + 0.5) * r.height) / n, cell: r.width / n };
    }

    kick() {
      if (!this.raf) this.raf = requestAnimationFrame((now) => this.loop(now));
    }

    loop(now) {
      this.raf = 0;
      const t = this.animMs > 0 ? Math.min(1, (now - this.animStart) / this.animMs) : 1;
      this.draw(t, now);
      const f = this.frame;
      const pulsing =
        f && (isHex(f) ? !!(this.selection || this.pending) : !f.paused && f.snakes.some((s) => s.alive && (s.fury > 0 || s.flying > 0 || s.sleeping)));
      if (t < 1) this.kick();
      else if (pulsing && !this.pulseTimer) {
        // Glows and sleeping z's need no more than ~20 frames a second.
        this.pulseTimer = setTimeout(() => {
          this.pulseTimer = 0;
          this.kick();
        }, 50);
      }
    }

    draw(t, now) {
      const ctx = this.ctx;
      const W = this.cssSize;
      ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
      const f = this.frame;
      if (isGrid(f) && f.width > 0 && f.height > 0 && Array.from(f.cells || '').length === f.width * f.height) {
        this.drawGrid(f, W, now);
        this.drawOverlay(f, W);
        this.draws += 1;
        return;
      }
      const cells = f && glyphs(f);
      if (!f || !cells || f.size <= 0) {
        ctx.fillStyle = THEME.bg;
        ctx.fillRect(0, 0, W, W);
        ctx.fillStyle = '#8b99ae';
        ctx.font = '600 16px system-ui, sans-serif';
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.fillText(this.message || '', W / 2, W / 2);
        return;
      }
      const n = f.size;
      const c = W / n;
      if (isHex(f)) {
        this.drawHex(f, cells, n, c, t, now);
        this.drawOverlay(f, W);
        this.draws += 1;
        return;
      }
      this.drawTerrain(cells, n, c, false);
      ctx.drawImage(this.terrain, 0, 0, W, W);
      for (let i = 0; i < cells.length; i++) {
        const g = cells[i];
        if (g === ' ' || g === '☼' || g === '#') continue;
        this.drawItem(g, (i % n) * c, Math.floor(i / n) * c, c, now);
      }
      const prevBySeat = new Map();
      if (this.prev) for (const s of this.prev.snakes) prevBySeat.set(s.seat, s);
      const order = f.snakes.slice().sort((a, b) => rank(a, this.mySeat) - rank(b, this.mySeat));
      for (const s of order) {
        const ps = prevBySeat.get(s.seat);
        const prevBody = ps && ps.alive && s.alive && !s.sleeping ? ps.body : null;
        this.drawSnake(s, snakePoints(s.body || [], prevBody, t), c, now, s.seat === this.mySeat);
      }
      this.drawOverlay(f, W);
      this.draws += 1;
    }

    /**
     * Walls and start floors never change during a game: cached. `hex`
     * draws the floor as a board of tiles instead of a checkerboard.
     */
    drawTerrain(cells, n, c, hex) {
      const key = (hex ? 'hex|' : '') + n + '|' + this.cssSize + '|' + this.dpr + '|' + cells.map((g) => (g === '☼' || g === '#' ? g : '.')).join('');
      if (key === this.terrainKey && this.terrain) return;
      this.terrainKey = key;
      const off = this.terrain || document.createElement('canvas');
      off.width = this.canvas.width;
      off.height = this.canvas.height;
      const ctx = off.getContext('2d');
      ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
      ctx.fillStyle = hex ? THEME.hexBg : THEME.bg;
      ctx.fillRect(0, 0, n * c, n * c);
      const wall = (x, y) => x >= 0 && y >= 0 && x < n && y < n && cells[y * n + x] === '☼';
      for (let y = 0; y < n; y++) {
        for (let x = 0; x < n; x++) {
          const g = cells[y * n + x];
          const px = x * c;
          const py = y * c;
          if (g === '☼') continue;
          if (hex) {
            // A tile per cell: the gaps between them are the grid.
            ctx.fillStyle = (x + y) % 2 ? THEME.hexTile : THEME.hexTileAlt;
            roundRect(ctx, px + c * 0.045, py + c * 0.045, c * 0.91, c * 0.91, c * 0.16);
            ctx.fill();
            ctx.fillStyle = THEME.hexTileTop;
            ctx.fillRect(px + c * 0.16, py + c * 0.045, c * 0.68, Math.max(1, c * 0.025));
            continue;
          }
          if ((x + y) % 2 === 1) {
            ctx.fillStyle = THEME.bgAlt;
            ctx.fillRect(px, py, c, c);
          }
          if (g === '#') {
            ctx.fillStyle = THEME.floor;
            roundRect(ctx, px + c * 0.08, py + c * 0.08, c * 0.84, c * 0.84, c * 0.18);
            ctx.fill();
            ctx.save();
            ctx.strokeStyle = THEME.floorLine;
            ctx.lineWidth = Math.max(1, c * 0.06);
            ctx.setLineDash([c * 0.14, c * 0.1]);
            roundRect(ctx, px + c * 0.14, py + c * 0.14, c * 0.72, c * 0.72, c * 0.14);
            ctx.stroke();
            ctx.restore();
            ctx.fillStyle = THEME.floorLine;
            ctx.beginPath();
            ctx.arc(px + c / 2, py + c / 2, c * 0.08, 0, Math.PI * 2);
            ctx.fill();
          }
        }
      }
      // Walls: a mortar base, then raised blocks that merge with their
      // neighbours so that long walls read as one structure.
      for (let y = 0; y < n; y++) {
        for (let x = 0; x < n; x++) {
          if (!wall(x, y)) continue;
          const px = x * c;
          const py = y * c;
          ctx.fillStyle = THEME.wallMortar;
          ctx.fillRect(px, py, c, c);
          const inset = c * 0.07;
          const l = wall(x - 1, y) ? 0 : inset;
          const r = wall(x + 1, y) ? 0 : inset;
          const tp = wall(x, y - 1) ? 0 : inset;
          const b = wall(x, y + 1) ? 0 : inset;
          ctx.fillStyle = THEME.wall;
          ctx.fillRect(px + l, py + tp, c - l - r, c - tp - b);
          if (!wall(x, y - 1)) {
            ctx.fillStyle = THEME.wallTop;
            ctx.fillRect(px + l, py + tp, c - l - r, c * 0.16);
          }
          if (!wall(x, y + 1)) {
            ctx.fillStyle = THEME.wallShade;
            ctx.fillRect(px + l, py + c - b - c * 0.14, c - l - r, c * 0.14);
          }
          // A faint brick joint.
          ctx.fillStyle = 'rgba(0,0,0,0.18)';
          ctx.fillRect(px + ((y % 2) * c) / 2, py + c * 0.48, Math.max(1, c * 0.04), c * 0.04 + 0.5);
        }
      }
      this.terrain = off;
      if (hex) return;
      // A very faint grid over the floor.
      ctx.strokeStyle = THEME.grid;
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let i = 1; i < n; i++) {
        ctx.moveTo(i * c + 0.5, 0);
        ctx.lineTo(i * c + 0.5, n * c);
        ctx.moveTo(0, i * c + 0.5);
        ctx.lineTo(n * c, i * c + 0.5);
      }
      ctx.stroke();
      this.terrain = off;
    }

    /**
     * A Hex frame: the board, each seat's territory tinted in its colour,
     * the pieces (popping in, flipping when captured, fading when gone),
     * then the player's selection, targets and sent move on top.
     */
    drawHex(f, cells, n, c, t, now) {
      const ctx = this.ctx;
      const W = this.cssSize;
      this.drawTerrain(cells, n, c, true);
      ctx.drawImage(this.terrain, 0, 0, W, W);
      const anim = t < 1 ? this.hexAnim : null;
      const oldColors = this.hexAnim ? this.hexAnim.colors : null;
      const colors = new Map();
      const color = (seat) => {
        if (!colors.has(seat)) colors.set(seat, seatColor(f, seat, oldColors));
        return colors.get(seat);
      };
      // Territory: a faint wash under each piece, stronger for one's own.
      ctx.save();
      for (const p of f.pieces) {
        ctx.globalAlpha = p[2] === this.mySeat ? 0.16 : 0.1;
        ctx.fillStyle = color(p[2]);
        ctx.fillRect(p[0] * c, p[1] * c, c, c);
      }
      ctx.restore();
      if (anim) {
        for (const p of anim.gone) {
          drawPiece(ctx, (p[0] + 0.5) * c, (p[1] + 0.5) * c, c, color(p[2]), { scale: 1 - 0.5 * t, alpha: 1 - t, mine: p[2] === this.mySeat });
        }
      }
      for (const p of f.pieces) {
        const o = { mine: p[2] === this.mySeat };
        let col = color(p[2]);
        const a = anim && anim.changed.get(p[0] + ',' + p[1]);
        if (a === 'new') {
          o.scale = Math.max(0, easeOutBack(t));
        } else if (a !== undefined && a !== null && anim) {
          // Captured: the tile flips over from its old colour to the new.
          o.sx = Math.max(0.04, Math.abs(Math.cos(Math.PI * t)));
          if (t < 0.5) {
            col = color(a);
            o.mine = a === this.mySeat;
          }
          o.flash = 1 - t;
        }
        drawPiece(ctx, (p[0] + 0.5) * c, (p[1] + 0.5) * c, c, col, o);
      }
      this.drawHexUi(f, c, now, color);
    }

    /** The player's own interaction: sent move, selection, targets, hover. */
    drawHexUi(f, c, now, color) {
      const ctx = this.ctx;
      const mine = this.mySeat === null ? '#e5e7eb' : color(this.mySeat);
      const center = (cell) => [(cell[0] + 0.5) * c, (cell[1] + 0.5) * c];
      const pd = this.pending;
      if (pd) {
        ctx.save();
        ctx.globalAlpha = 0.5;
        drawPiece(ctx, ...center(pd.to), c, mine, { scale: 0.9, mine: true });
        ctx.restore();
        ctx.save();
        ctx.strokeStyle = 'rgba(255,255,255,0.85)';
        ctx.lineWidth = Math.max(1, c * 0.05);
        ctx.setLineDash([c * 0.12, c * 0.08]);
        ctx.lineDashOffset = -now / 40;
        roundRect(ctx, pd.to[0] * c + c * 0.08, pd.to[1] * c + c * 0.08, c * 0.84, c * 0.84, c * 0.22);
        ctx.stroke();
        ctx.restore();
        arrow(ctx, center(pd.from), center(pd.to), c, 'rgba(255,255,255,0.75)', pd.jump);
      }
      const sel = this.selection;
      if (!sel) return;
      const hv = this.hover;
      const hovered = hv && sel.targets.find((g) => g.x === hv[0] && g.y === hv[1]);
      for (const g of sel.targets) {
        const [cx, cy] = center([g.x, g.y]);
        ctx.save();
        if (g.jump) {
          ctx.strokeStyle = mine;
          ctx.globalAlpha = 0.9;
          ctx.lineWidth = Math.max(1.5, c * 0.07);
          ctx.setLineDash([c * 0.11, c * 0.08]);
          ctx.beginPath();
          ctx.arc(cx, cy, c * 0.27, 0, Math.PI * 2);
          ctx.stroke();
        } else {
          ctx.fillStyle = mine;
          ctx.globalAlpha = 0.28;
          ctx.beginPath();
          ctx.arc(cx, cy, c * 0.32, 0, Math.PI * 2);
          ctx.fill();
          ctx.globalAlpha = 0.95;
          ctx.beginPath();
          ctx.arc(cx, cy, c * 0.14, 0, Math.PI * 2);
          ctx.fill();
        }
        ctx.restore();
      }
      // The selected piece: a pulsing frame.
      const [sx, sy] = [sel.from[0] * c, sel.from[1] * c];
      const pulse = 0.65 + 0.35 * Math.sin(now / 160);
      ctx.save();
      ctx.shadowColor = mine;
      ctx.shadowBlur = c * 0.5;
      ctx.strokeStyle = 'rgba(255,255,255,' + pulse.toFixed(3) + ')';
      ctx.lineWidth = Math.max(2, c * 0.09);
      roundRect(ctx, sx + c * 0.02, sy + c * 0.02, c * 0.96, c * 0.96, c * 0.26);
      ctx.stroke();
      ctx.restore();
      if (hovered) {
        ctx.save();
        ctx.globalAlpha = 0.6;
        drawPiece(ctx, ...center([hovered.x, hovered.y]), c, mine, { mine: true });
        ctx.restore();
        arrow(ctx, center(sel.from), center([hovered.x, hovered.y]), c, 'rgba(255,255,255,0.9)', hovered.jump);
        label(ctx, hovered.jump ? 'jump' : 'clone', (hovered.x + 0.5) * c, hovered.y * c - c * 0.32 < c * 0.4 ? (hovered.y + 1) * c + c * 0.32 : hovered.y * c - c * 0.32, c);
      }
    }

    drawItem(g, x, y, c, now) {
      const ctx = this.ctx;
      const cx = x + c / 2;
      const cy = y + c / 2;
      ctx.save();
      switch (g) {
        case '○': {
          // Apple: a red fruit with a leaf and a shine.
          const r = c * 0.33;
          const grad = ctx.createRadialGradient(cx - r * 0.4, cy - r * 0.2, r * 0.1, cx, cy + r * 0.1, r * 1.1);
          grad.addColorStop(0, '#ff8a8a');
          grad.addColorStop(0.5, '#e5383b');
          grad.addColorStop(1, '#8f1d21');
          ctx.fillStyle = grad;
          ctx.beginPath();
          ctx.arc(cx, cy + c * 0.04, r, 0, Math.PI * 2);
          ctx.fill();
          ctx.strokeStyle = '#5b3a1a';
          ctx.lineWidth = Math.max(1, c * 0.06);
          ctx.beginPath();
          ctx.moveTo(cx, cy - r * 0.8);
          ctx.lineTo(cx + c * 0.03, cy - r * 1.25);
          ctx.stroke();
          ctx.fillStyle = '#4ade80';
          ctx.beginPath();
          ctx.ellipse(cx + c * 0.12, cy - r * 1.1, c * 0.11, c * 0.05, -0.5, 0, Math.PI * 2);
          ctx.fill();
          break;
        }
        case '●': {
          // Stone: a grey rock.
          const r = c * 0.36;
          const grad = ctx.createRadialGradient(cx - r * 0.4, cy - r * 0.4, r * 0.1, cx, cy, r * 1.2);
          grad.addColorStop(0, '#c9ced8');
          grad.addColorStop(0.6, '#7c8494');
          grad.addColorStop(1, '#3f4552');
          ctx.fillStyle = grad;
          ctx.beginPath();
          const k = 7;
          for (let i = 0; i <= k; i++) {
            const a = (i / k) * Math.PI * 2;
            const rr = r * (0.86 + 0.14 * Math.sin(i * 2.3 + 1));
            const px = cx + Math.cos(a) * rr;
            const py = cy + Math.sin(a) * rr * 0.9;
            if (i === 0) ctx.moveTo(px, py);
            else ctx.lineTo(px, py);
          }
          ctx.closePath();
          ctx.fill();
          ctx.strokeStyle = 'rgba(0,0,0,0.35)';
          ctx.lineWidth = Math.max(1, c * 0.04);
          ctx.stroke();
          break;
        }
        case '$': {
          // Gold: a coin.
          const r = c * 0.32;
          ctx.shadowColor = 'rgba(255, 200, 40, 0.55)';
          ctx.shadowBlur = c * 0.35;
          const grad = ctx.createLinearGradient(cx - r, cy - r, cx + r, cy + r);
          grad.addColorStop(0, '#fff1a8');
          grad.addColorStop(0.5, '#fbbf24');
          grad.addColorStop(1, '#b7791f');
          ctx.fillStyle = grad;
          ctx.beginPath();
          ctx.arc(cx, cy, r, 0, Math.PI * 2);
          ctx.fill();
          ctx.shadowBlur = 0;
          ctx.strokeStyle = 'rgba(120, 72, 0, 0.7)';
          ctx.lineWidth = Math.max(1, c * 0.04);
          ctx.beginPath();
          ctx.arc(cx, cy, r * 0.72, 0, Math.PI * 2);
          ctx.stroke();
          ctx.fillStyle = 'rgba(120, 72, 0, 0.85)';
          ctx.font = '700 ' + Math.round(c * 0.42) + 'px system-ui, sans-serif';
          ctx.textAlign = 'center';
          ctx.textBaseline = 'middle';
          ctx.fillText('$', cx, cy + c * 0.02);
          break;
        }
        case '®':
          pill(ctx, cx, cy, c, Math.PI / 4, '#ff4d6d', '#5c0f22', THEME.fury, now);
          break;
        case '©':
          pill(ctx, cx, cy, c, -Math.PI / 4, '#7dd3fc', '#0b4a6f', THEME.fly, now);
          break;
        default:
          ctx.fillStyle = '#8b99ae';
          ctx.font = '600 ' + Math.round(c * 0.6) + 'px ui-monospace, monospace';
          ctx.textAlign = 'center';
          ctx.textBaseline = 'middle';
          ctx.fillText(g, cx, cy);
      }
      ctx.restore();
    }

    drawSnake(s, pts, c, now, mine) {
      if (!pts.length) return;
      const ctx = this.ctx;
      const dead = !s.alive;
      const color = dead ? THEME.dead : s.color || '#e5e7eb';
      const center = (p) => [(p[0] + 0.5) * c, (p[1] + 0.5) * c];
      const P = pts.map(center);
      ctx.save();
      ctx.lineCap = 'round';
      ctx.lineJoin = 'round';
      if (dead) ctx.globalAlpha = 0.55;
      else if (s.sleeping) ctx.globalAlpha = 0.5;
      const flying = s.alive && s.flying > 0;
      if (flying) {
        // A shadow on the ground, and the snake lifted above it.
        ctx.save();
        ctx.translate(c * 0.16, c * 0.22);
        strokePath(ctx, P, c * 0.6, 'rgba(0,0,0,0.4)');
        ctx.restore();
        ctx.translate(-c * 0.06, -c * 0.1);
      }
      if (mine) {
        const pulse = 0.28 + 0.1 * Math.sin(now / 260);
        strokePath(ctx, P, c * 0.98, 'rgba(255,255,255,' + pulse.toFixed(3) + ')');
      }
      const fury = s.alive && s.fury > 0;
      strokePath(ctx, P, c * 0.74, 'rgba(0,0,0,0.55)');
      if (fury) {
        ctx.save();
        ctx.shadowColor = THEME.fury;
        ctx.shadowBlur = c * (0.6 + 0.35 * Math.sin(now / 120));
        strokePath(ctx, P, c * 0.62, color);
        ctx.restore();
      } else {
        strokePath(ctx, P, c * 0.62, color);
      }
      // A rounded-tube look: a lighter core, then a thin highlight.
      strokePath(ctx, P, c * 0.36, shade(color, 0.22));
      ctx.save();
      ctx.translate(-c * 0.05, -c * 0.06);
      strokePath(ctx, P, c * 0.1, 'rgba(255,255,255,0.35)');
      ctx.restore();
      if (flying) strokePath(ctx, P, c * 0.08, 'rgba(125,211,252,0.6)');
      // The head.
      const [hx, hy] = P[0];
      const r = c * 0.42;
      ctx.fillStyle = 'rgba(0,0,0,0.55)';
      ctx.beginPath();
      ctx.arc(hx, hy, r + c * 0.05, 0, Math.PI * 2);
      ctx.fill();
      if (fury) {
        ctx.shadowColor = THEME.fury;
        ctx.shadowBlur = c * 0.8;
      }
      const hg = ctx.createRadialGradient(hx - r * 0.35, hy - r * 0.4, r * 0.1, hx, hy, r);
      hg.addColorStop(0, shade(color, 0.35));
      hg.addColorStop(1, color);
      ctx.fillStyle = hg;
      ctx.beginPath();
      ctx.arc(hx, hy, r, 0, Math.PI * 2);
      ctx.fill();
      ctx.shadowBlur = 0;
      if (fury) {
        ctx.strokeStyle = THEME.fury;
        ctx.lineWidth = Math.max(1, c * 0.08);
        ctx.stroke();
      }
      this.drawEyes(s, hx, hy, c, now);
      if (mine) {
        ctx.globalAlpha = 1;
        label(ctx, 'you', hx, hy - c * 0.95, c);
      }
      ctx.restore();
    }

    drawEyes(s, hx, hy, c, now) {
      const ctx = this.ctx;
      const d = DIRS[s.dir] || DIRS.right;
      const px = -d[1];
      const py = d[0];
      const fwd = c * 0.13;
      const side = c * 0.17;
      const er = c * 0.11;
      for (const k of [-1, 1]) {
        const ex = hx + d[0] * fwd + px * side * k;
        const ey = hy + d[1] * fwd + py * side * k;
        if (!s.alive) {
          ctx.strokeStyle = '#111827';
          ctx.lineWidth = Math.max(1, c * 0.06);
          ctx.beginPath();
          ctx.moveTo(ex - er, ey - er);
          ctx.lineTo(ex + er, ey + er);
          ctx.moveTo(ex + er, ey - er);
          ctx.lineTo(ex - er, ey + er);
          ctx.stroke();
        } else if (s.sleeping) {
          ctx.strokeStyle = '#111827';
          ctx.lineWidth = Math.max(1, c * 0.06);
          ctx.beginPath();
          ctx.moveTo(ex - er * px - er * d[0], ey - er * py - er * d[1]);
          ctx.lineTo(ex + er * px - er * d[0], ey + er * py - er * d[1]);
          ctx.stroke();
        } else {
          ctx.fillStyle = '#ffffff';
          ctx.beginPath();
          ctx.arc(ex, ey, er, 0, Math.PI * 2);
          ctx.fill();
          ctx.fillStyle = s.fury > 0 ? '#b00020' : '#0b0f17';
          ctx.beginPath();
          ctx.arc(ex + d[0] * er * 0.4, ey + d[1] * er * 0.4, er * 0.55, 0, Math.PI * 2);
          ctx.fill();
        }
      }
      if (s.alive && s.sleeping) {
        const bob = Math.sin(now / 400) * c * 0.08;
        ctx.fillStyle = 'rgba(226,232,240,0.9)';
        ctx.font = '700 ' + Math.round(c * 0.45) + 'px system-ui, sans-serif';
        ctx.textAlign = 'left';
        ctx.textBaseline = 'bottom';
        ctx.fillText('z', hx + c * 0.3, hy - c * 0.25 + bob);
      }
    }

    /** An arena frame: walls, food and signs, then the snakes, centred. */
    drawGrid(f, W, now) {
      const ctx = this.ctx;
      const w = f.width;
      const hh = f.height;
      const cells = Array.from(f.cells);
      const WW = this.cssW || W;
      const HH = this.cssH || W;
      const c = Math.min(WW / w, HH / hh);
      const ox = (WW - c * w) / 2;
      const oy = (HH - c * hh) / 2;
      ctx.fillStyle = '#070a10';
      ctx.fillRect(0, 0, WW, HH);
      ctx.save();
      ctx.translate(ox, oy);
      ctx.fillStyle = THEME.bg;
      ctx.fillRect(0, 0, c * w, c * hh);
      const wall = (x, y) => x >= 0 && y >= 0 && x < w && y < hh && cells[y * w + x] === '#';
      // A checkerboard only where cells are big enough to see it.
      if (c >= 8) {
        ctx.fillStyle = THEME.bgAlt;
        for (let y = 0; y < hh; y++) for (let x = (y % 2); x < w; x += 2) ctx.fillRect(x * c, y * c, c, c);
      }
      for (let y = 0; y < hh; y++) {
        for (let x = 0; x < w; x++) {
          const g = cells[y * w + x];
          const px = x * c;
          const py = y * c;
          if (g === '#') {
            ctx.fillStyle = THEME.wallMortar;
            ctx.fillRect(px, py, c, c);
            const inset = c * 0.07;
            const l = wall(x - 1, y) ? 0 : inset;
            const r = wall(x + 1, y) ? 0 : inset;
            const t = wall(x, y - 1) ? 0 : inset;
            const b = wall(x, y + 1) ? 0 : inset;
            ctx.fillStyle = THEME.wall;
            ctx.fillRect(px + l, py + t, c - l - r, c - t - b);
            if (!wall(x, y - 1)) {
              ctx.fillStyle = THEME.wallTop;
              ctx.fillRect(px + l, py + t, c - l - r, c * 0.16);
            }
          } else if (g === 'o') {
            if (c >= 10) this.drawItem('○', px, py, c, now);
            else {
              ctx.fillStyle = '#e5383b';
              ctx.beginPath();
              ctx.arc(px + c / 2, py + c / 2, c * 0.38, 0, Math.PI * 2);
              ctx.fill();
            }
          } else if (g === '+' || g === '-') {
            sign(ctx, g === '+', px, py, c);
          } else if (g === '~') {
            ctx.fillStyle = THEME.hazard;
            ctx.fillRect(px, py, c, c);
          }
        }
      }
      const order = f.snakes.slice().sort((a, b) => rank(a, this.mySeat) - rank(b, this.mySeat));
      for (const s of order) this.drawGridSnake(s, c, w, hh, now, s.seat === this.mySeat);
      ctx.restore();
      if (f.phase === 'over' && f.result) {
        const fs = Math.max(13, Math.round(W / 34));
        ctx.font = '700 ' + fs + 'px system-ui, sans-serif';
        const text = f.result.length > 70 ? f.result.slice(0, 69) + '…' : f.result;
        const bw = Math.min(WW * 0.96, ctx.measureText(text).width + fs * 1.6);
        const bh = fs * 2;
        ctx.fillStyle = 'rgba(10, 14, 21, 0.85)';
        roundRect(ctx, (WW - bw) / 2, (HH - bh) / 2, bw, bh, bh / 2);
        ctx.fill();
        ctx.fillStyle = '#fbbf24';
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.fillText(text, WW / 2, HH / 2 + 1, bw - fs);
      }
    }

    /** A snake cell by cell, joined where cells touch (not across a wrap). */
    drawGridSnake(s, c, w, hh, now, mine) {
      const body = (s.body || []).filter((p) => p[0] >= 0 && p[1] >= 0 && p[0] < w && p[1] < hh);
      if (!body.length) return;
      const ctx = this.ctx;
      // A dead snake keeps its colour, faded, so that among eight snakes
      // one can still tell whose body lies where.
      const color = s.color || (s.alive ? '#e5e7eb' : THEME.dead);
      ctx.save();
      if (!s.alive) ctx.globalAlpha = 0.38;
      // Small cells (a 120x80 board) lose no width to gaps.
      const inset = c >= 8 ? c * 0.12 : 0;
      if (c < 8 && s.alive) {
        // A ring around the head so that a length-1 snake can be found.
        ctx.strokeStyle = color;
        ctx.lineWidth = 1.5;
        ctx.beginPath();
        ctx.arc((body[0][0] + 0.5) * c, (body[0][1] + 0.5) * c, c * 1.6, 0, Math.PI * 2);
        ctx.stroke();
      }
      if (mine && s.alive) {
        ctx.fillStyle = 'rgba(255,255,255,' + (0.22 + 0.1 * Math.sin(now / 260)).toFixed(3) + ')';
        for (const p of body) ctx.fillRect(p[0] * c - c * 0.04, p[1] * c - c * 0.04, c * 1.08, c * 1.08);
      }
      ctx.fillStyle = color;
      for (let i = 0; i < body.length; i++) {
        const p = body[i];
        roundRect(ctx, p[0] * c + inset, p[1] * c + inset, c - 2 * inset, c - 2 * inset, c * 0.22);
        ctx.fill();
        const q = body[i + 1];
        if (q && adjacent(p, q)) {
          const x = Math.min(p[0], q[0]) * c + (p[0] === q[0] ? inset : c / 2);
          const y = Math.min(p[1], q[1]) * c + (p[1] === q[1] ? inset : c / 2);
          ctx.fillRect(x, y, p[0] === q[0] ? c - 2 * inset : c, p[1] === q[1] ? c - 2 * inset : c);
        }
      }
      // The head: a lighter block with eyes looking the way it goes.
      const hd = body[0];
      const hx = hd[0] * c;
      const hy = hd[1] * c;
      ctx.fillStyle = shade(color, 0.25);
      roundRect(ctx, hx + inset * 0.5, hy + inset * 0.5, c - inset, c - inset, c * 0.28);
      ctx.fill();
      if (c >= 6) {
        const d = DIRS[s.dir] || DIRS.up;
        const cx = hx + c / 2 + d[0] * c * 0.14;
        const cy = hy + c / 2 + d[1] * c * 0.14;
        const side = [-d[1], d[0]];
        ctx.fillStyle = s.alive ? '#0a0e15' : '#e5e7eb';
        for (const k of [-1, 1]) {
          ctx.beginPath();
          ctx.arc(cx + side[0] * k * c * 0.18, cy + side[1] * k * c * 0.18, Math.max(1, c * 0.09), 0, Math.PI * 2);
          ctx.fill();
        }
      }
      ctx.restore();
      // One's own snake is named on every board, however small its cells.
      if (mine && s.alive && body.length) {
        label(this.ctx, 'you', (body[0][0] + 0.5) * c, (body[0][1] + 0.5) * c - Math.max(c, 9) * 0.95, Math.max(c, 16));
      }
    }

    drawOverlay(f, W) {
      const ctx = this.ctx;
      let text = null;
      let color = '#fbbf24';
      const WW = this.cssW || W;
      const HH = this.cssH || W;
      if (f.paused) {
        ctx.fillStyle = 'rgba(5, 8, 14, 0.45)';
        ctx.fillRect(0, 0, WW, HH);
        text = 'Paused';
        color = '#38bdf8';
      } else if (f.phase === 'countdown') {
        text = 'Round ' + (f.round + 1) + ' starts in ' + f.phase_ticks + '…';
      }
      if (!text) return;
      const fs = Math.max(13, Math.round(W / 36));
      ctx.font = '700 ' + fs + 'px system-ui, sans-serif';
      const tw = ctx.measureText(text).width;
      const bw = tw + fs * 1.6;
      const bh = fs * 1.9;
      const bx = (WW - bw) / 2;
      const by = f.paused ? (HH - bh) / 2 : HH * 0.05;
      ctx.fillStyle = 'rgba(10, 14, 21, 0.78)';
      roundRect(ctx, bx, by, bw, bh, bh / 2);
      ctx.fill();
      ctx.strokeStyle = color;
      ctx.globalAlpha = 0.6;
      ctx.lineWidth = 1.5;
      ctx.stroke();
      ctx.globalAlpha = 1;
      ctx.fillStyle = color;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(text, WW / 2, by + bh / 2 + 1);
    }
  }

  /** A Multisnake sign: `+` (grows) or `-` (shrinks) in cell `(px, py)` of side `c`. */
  function sign(ctx, plus, px, py, c) {
    ctx.fillStyle = plus ? 'rgba(74, 222, 128, 0.2)' : 'rgba(248, 113, 113, 0.2)';
    roundRect(ctx, px + c * 0.1, py + c * 0.1, c * 0.8, c * 0.8, c * 0.2);
    ctx.fill();
    ctx.fillStyle = plus ? '#4ade80' : '#f87171';
    const k = Math.max(1, c * 0.14);
    ctx.fillRect(px + c * 0.24, py + c / 2 - k / 2, c * 0.52, k);
    if (plus) ctx.fillRect(px + c / 2 - k / 2, py + c * 0.24, k, c * 0.52);
  }

  /** Draw order: dead, then sleeping, then live snakes; one's own last. */
  function rank(s, mySeat) {
    if (s.seat === mySeat) return 3;
    if (!s.alive) return 0;
    if (s.sleeping) return 1;
    return 2;
  }

  /** `#rrggbb` mixed towards white (amt > 0) or black (amt < 0). */
  function shade(color, amt) {
    const m = /^#([0-9a-f]{6})$/i.exec(color || '');
    if (!m) return amt > 0 ? 'rgba(255,255,255,' + amt + ')' : 'rgba(0,0,0,' + -amt + ')';
    const v = parseInt(m[1], 16);
    const t = amt > 0 ? 255 : 0;
    const a = Math.abs(amt);
    const ch = (x) => Math.round(x + (t - x) * a);
    return 'rgb(' + ch((v >> 16) & 255) + ',' + ch((v >> 8) & 255) + ',' + ch(v & 255) + ')';
  }

  function strokePath(ctx, P, width, style) {
    ctx.strokeStyle = style;
    ctx.fillStyle = style;
    ctx.lineWidth = width;
    if (P.length === 1) {
      ctx.beginPath();
      ctx.arc(P[0][0], P[0][1], width / 2, 0, Math.PI * 2);
      ctx.fill();
      return;
    }
    ctx.beginPath();
    ctx.moveTo(P[0][0], P[0][1]);
    for (let i = 1; i < P.length; i++) {
      // Cells that are not neighbours (a respawn mid-frame) are not joined.
      const dx = Math.abs(P[i][0] - P[i - 1][0]);
      const dy = Math.abs(P[i][1] - P[i - 1][1]);
      if (dx + dy > width * 4) ctx.moveTo(P[i][0], P[i][1]);
      else ctx.lineTo(P[i][0], P[i][1]);
    }
    ctx.stroke();
  }

  function roundRect(ctx, x, y, w, h, r) {
    // A canvas laid out at (almost) zero size gives negative cells for a
    // frame; arcTo throws on a negative radius.
    const rr = Math.max(0, Math.min(r, w / 2, h / 2));
    ctx.beginPath();
    ctx.moveTo(x + rr, y);
    ctx.arcTo(x + w, y, x + w, y + h, rr);
    ctx.arcTo(x + w, y + h, x, y + h, rr);
    ctx.arcTo(x, y + h, x, y, rr);
    ctx.arcTo(x, y, x + w, y, rr);
    ctx.closePath();
  }

  function pill(ctx, cx, cy, c, angle, light, dark, glow, now) {
    ctx.translate(cx, cy);
    ctx.rotate(angle);
    const w = c * 0.8;
    const h = c * 0.4;
    ctx.shadowColor = glow;
    ctx.shadowBlur = c * (0.45 + 0.2 * Math.sin(now / 300));
    ctx.fillStyle = dark;
    roundRect(ctx, -w / 2, -h / 2, w, h, h / 2);
    ctx.fill();
    ctx.shadowBlur = 0;
    ctx.save();
    ctx.beginPath();
    ctx.rect(-w / 2, -h / 2, w / 2, h);
    ctx.clip();
    ctx.fillStyle = light;
    roundRect(ctx, -w / 2, -h / 2, w, h, h / 2);
    ctx.fill();
    ctx.restore();
    ctx.fillStyle = 'rgba(255,255,255,0.45)';
    roundRect(ctx, -w / 2 + h * 0.3, -h / 2 + h * 0.15, w * 0.35, h * 0.2, h * 0.1);
    ctx.fill();
  }

  /**
   * A Hex piece: a rounded tile in `color` centred on (cx, cy). `o.scale`
   * (pop-in), `o.sx` (horizontal squash for the capture flip), `o.alpha`,
   * `o.mine` (a white pip: the player's own piece) and `o.flash` (a white
   * ring that fades, 0..1).
   */
  function drawPiece(ctx, cx, cy, c, color, o) {
    const scale = o.scale === undefined ? 1 : o.scale;
    const s = c * 0.8 * scale;
    if (s < 0.5) return;
    const w = s * (o.sx === undefined ? 1 : o.sx);
    const hh = s;
    const r = Math.min(w, hh) * 0.3;
    ctx.save();
    if (o.alpha !== undefined) ctx.globalAlpha *= Math.max(0, o.alpha);
    ctx.fillStyle = 'rgba(0,0,0,0.45)';
    roundRect(ctx, cx - w / 2, cy - hh / 2 + c * 0.05, w, hh, r);
    ctx.fill();
    const g = ctx.createLinearGradient(0, cy - hh / 2, 0, cy + hh / 2);
    g.addColorStop(0, shade(color, 0.28));
    g.addColorStop(0.55, color);
    g.addColorStop(1, shade(color, -0.22));
    ctx.fillStyle = g;
    roundRect(ctx, cx - w / 2, cy - hh / 2, w, hh, r);
    ctx.fill();
    ctx.strokeStyle = shade(color, -0.5);
    ctx.lineWidth = Math.max(1, c * 0.035);
    ctx.stroke();
    if (w > s * 0.4) {
      ctx.fillStyle = 'rgba(255,255,255,0.25)';
      roundRect(ctx, cx - w / 2 + s * 0.14, cy - hh / 2 + s * 0.09, w - s * 0.28, hh * 0.2, hh * 0.1);
      ctx.fill();
    }
    if (o.mine && w > s * 0.3) {
      ctx.fillStyle = '#ffffff';
      ctx.strokeStyle = 'rgba(0,0,0,0.45)';
      ctx.lineWidth = Math.max(1, c * 0.03);
      ctx.beginPath();
      ctx.arc(cx, cy + hh * 0.05, s * 0.13, 0, Math.PI * 2);
      ctx.fill();
      ctx.stroke();
    }
    if (o.flash > 0) {
      const grow = (1 - o.flash) * c * 0.25;
      ctx.strokeStyle = 'rgba(255,255,255,' + (0.9 * o.flash).toFixed(3) + ')';
      ctx.lineWidth = Math.max(1, c * 0.07);
      roundRect(ctx, cx - s / 2 - grow, cy - hh / 2 - grow, s + 2 * grow, hh + 2 * grow, r + grow);
      ctx.stroke();
    }
    ctx.restore();
  }

  /** An arrow between two cell centres, stopping short of the target. */
  function arrow(ctx, a, b, c, style, dashed) {
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const len = Math.hypot(dx, dy);
    if (len < 1) return;
    const ux = dx / len;
    const uy = dy / len;
    const x0 = a[0] + ux * c * 0.2;
    const y0 = a[1] + uy * c * 0.2;
    const x1 = b[0] - ux * c * 0.22;
    const y1 = b[1] - uy * c * 0.22;
    const head = c * 0.2;
    ctx.save();
    ctx.strokeStyle = style;
    ctx.fillStyle = style;
    ctx.lineWidth = Math.max(1.5, c * 0.07);
    ctx.lineCap = 'round';
    if (dashed) ctx.setLineDash([c * 0.12, c * 0.1]);
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1 - ux * head * 0.6, y1 - uy * head * 0.6);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(x1 - ux * head - uy * head * 0.6, y1 - uy * head + ux * head * 0.6);
    ctx.lineTo(x1 - ux * head + uy * head * 0.6, y1 - uy * head - ux * head * 0.6);
    ctx.closePath();
    ctx.fill();
    ctx.restore();
  }

  function label(ctx, text, x, y, c) {
    const fs = Math.max(9, Math.round(c * 0.42));
    ctx.font = '700 ' + fs + 'px system-ui, sans-serif';
    const w = ctx.measureText(text).width + fs * 0.8;
    const h = fs * 1.3;
    ctx.fillStyle = 'rgba(255,255,255,0.92)';
    roundRect(ctx, x - w / 2, y - h / 2, w, h, h / 2);
    ctx.fill();
    ctx.fillStyle = '#0b0f17';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, x, y + 0.5);
  }

  SP.BoardView = BoardView;

  // ---- The legend: each piece of the game's board, drawn as the board draws it ----

  const LEGEND_PX = 22;

  /** A wall cell as the boards draw one, alone. */
  function legendWall(ctx, c) {
    ctx.fillStyle = THEME.wallMortar;
    ctx.fillRect(0, 0, c, c);
    ctx.fillStyle = THEME.wall;
    ctx.fillRect(c * 0.07, c * 0.07, c * 0.86, c * 0.86);
    ctx.fillStyle = THEME.wallTop;
    ctx.fillRect(c * 0.07, c * 0.07, c * 0.86, c * 0.16);
  }

  /** A short snake of `color` going right, drawn by the board's own code. */
  function legendSnake(color, opts) {
    return function (ctx, c) {
      const view = { ctx, drawEyes: BoardView.prototype.drawEyes };
      const snake = Object.assign({ seat: 0, alive: true, sleeping: false, fury: 0, flying: 0, color, dir: 'right' }, opts || {});
      // Two cells of half the icon's side: the head, and a body behind it.
      BoardView.prototype.drawSnake.call(view, snake, [[1, 0.5], [0, 0.5]], c / 2, 0, !!(opts && opts.mine));
    };
  }

  /** What the board of `game` holds, as `[draw(ctx, cellPx), words]`. */
  function legendItems(game, mine) {
    const item = (g) => (ctx, c) => BoardView.prototype.drawItem.call({ ctx }, g, 0, 0, c, 0);
    const out = [];
    const you = mine != null ? [[legendSnake('#4ade80', { mine: true }), 'your snake (outlined)']] : [];
    if (game === 'hex') {
      out.push([(ctx, c) => drawPiece(ctx, c / 2, c / 2, c, '#4ade80', {}), 'a piece (its owner\'s colour)']);
      if (mine != null) out.push([(ctx, c) => drawPiece(ctx, c / 2, c / 2, c, '#e6194b', { mine: true }), 'your piece (a white pip)']);
      out.push([legendWall, 'wall']);
      return out;
    }
    out.push([legendSnake('#38bdf8'), 'snake (head and eyes lead)'], ...you);
    if (game === 'snakebattle') {
      out.push(
        [legendWall, 'wall'],
        [(ctx, c) => {
          ctx.fillStyle = THEME.floor;
          ctx.fillRect(0, 0, c, c);
          ctx.strokeStyle = THEME.floorLine;
          ctx.strokeRect(1.5, 1.5, c - 3, c - 3);
        }, 'start floor'],
        [item('○'), 'apple: +1 length'],
        [item('●'), 'stone: eat with 5+ length, or bite in fury'],
        [item('$'), 'gold: points'],
        [item('®'), 'fury pill: bite others'],
        [item('©'), 'flying pill: fly over snakes'],
        [legendSnake('#9ca3af', { sleeping: true }), 'asleep until the round starts']
      );
    } else if (game === 'multisnake') {
      out.push([legendWall, 'wall'], [(ctx, c) => sign(ctx, true, 0, 0, c), 'plus: grow'], [(ctx, c) => sign(ctx, false, 0, 0, c), 'minus: shrink']);
    } else if (game === 'duel') {
      out.push([legendWall, 'wall']);
    } else if (game === 'carrots' || game === 'battlesnake') {
      out.push([item('○'), game === 'carrots' ? 'apple' : 'food']);
      if (game === 'battlesnake') {
        out.push([(ctx, c) => {
          ctx.fillStyle = THEME.hazard;
          ctx.fillRect(0, 0, c, c);
        }, 'hazard: costs health']);
      }
    }
    out.push([legendSnake(THEME.dead, { alive: false }), 'out of the game']);
    return out;
  }

  /**
   * Fills `ul` with the pieces of the frame's game, each drawn by the
   * board's code; `mySeat` (or null) adds one's own snake. Drawn once per
   * game and seat.
   */
  SP.renderLegend = function (ul, f, mySeat) {
    if (!ul || !f) return;
    const key = f.game + '|' + (mySeat == null ? '' : 'me');
    if (ul.dataset.key === key) return;
    ul.dataset.key = key;
    ul.replaceChildren();
    ul.style.listStyle = 'none';
    ul.style.margin = '0';
    ul.style.padding = '0';
    ul.style.display = 'flex';
    ul.style.flexWrap = 'wrap';
    ul.style.gap = '4px 14px';
    const dpr = window.devicePixelRatio || 1;
    for (const [draw, words] of legendItems(f.game, mySeat)) {
      const li = document.createElement('li');
      li.className = 'legend-item';
      li.style.display = 'flex';
      li.style.alignItems = 'center';
      li.style.gap = '6px';
      const icon = document.createElement('canvas');
      icon.width = Math.round(LEGEND_PX * dpr);
      icon.height = Math.round(LEGEND_PX * dpr);
      icon.style.width = LEGEND_PX + 'px';
      icon.style.height = LEGEND_PX + 'px';
      icon.style.borderRadius = '4px';
      icon.style.background = THEME.bg;
      const ctx = icon.getContext('2d');
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      draw(ctx, LEGEND_PX);
      const text = document.createElement('span');
      text.textContent = words;
      li.append(icon, text);
      ul.appendChild(li);
    }
  };

  // ---- Side panel pieces shared by the room and player pages ----

  /**
   * 'Round 3 · tick 41', 'Game 2 · turn 17', 'Round 4 starting in 4…',
   * 'Paused': the count within the round or game. The room's own tick,
   * which never restarts, is shown apart as the "room tick".
   */
  SP.phaseText = function (f) {
    if (isGrid(f)) {
      const name = GRID_GAMES[f.game];
      if (f.paused) return { text: 'Paused · ' + name + ' · tick ' + f.tick, cls: 'paused' };
      if (f.game === 'carrots') return { text: name + ' · tick ' + f.tick, cls: 'running' };
      if (f.phase === 'over') return { text: 'Game ' + f.round + ' over · next in ' + f.phase_ticks, cls: 'countdown' };
      if (f.phase === 'waiting') return { text: 'Waiting for players · the next game starts once two seats are taken', cls: 'paused' };
      // KingOfBots counts a duel in rounds (its result says "round N"),
      // Multisnake in turns.
      const unit = f.game === 'duel' ? ' · round ' : ' · turn ';
      return { text: 'Game ' + f.round + unit + f.phase_ticks + ofMax(f), cls: 'running' };
    }
    if (isHex(f)) {
      // Hex has no rounds: one long game that restarts when it ends.
      if (f.paused) return { text: 'Paused · tick ' + f.tick, cls: 'paused' };
      return { text: 'Hex · tick ' + f.tick, cls: 'running' };
    }
    if (f.paused) return { text: 'Paused · round ' + f.round, cls: 'paused' };
    if (f.phase === 'countdown') return { text: 'Round ' + (f.round + 1) + ' starting in ' + f.phase_ticks + '…', cls: 'countdown' };
    return { text: 'Round ' + f.round + ' · tick ' + f.phase_ticks + ofMax(f), cls: 'running' };
  };

  /** ' of N' when the round or game in play ends at N at the latest. */
  function ofMax(f) {
    return f.phase_ticks_max > 0 ? ' of ' + f.phase_ticks_max : '';
  }

  SP.renderPhase = function (el, f) {
    const p = SP.phaseText(f);
    el.textContent = p.text;
    el.className = 'phase ' + p.cls;
  };

  /** A snake's status as badges. */
  SP.snakeBadges = function (s) {
    const h = SP.h;
    const out = [];
    if (!s.alive) out.push(h('span', { class: 'badge bad', text: 'dead' }));
    else if (s.sleeping) out.push(h('span', { class: 'badge warn', text: 'waiting' }));
    else out.push(h('span', { class: 'badge ok', text: 'alive' }));
    if (s.alive && s.fury > 0) out.push(h('span', { class: 'badge fury', text: 'fury ' + s.fury }));
    if (s.alive && s.flying > 0) out.push(h('span', { class: 'badge info', text: 'flying ' + s.flying }));
    if (s.stones > 0) out.push(h('span', { class: 'badge', text: s.stones + (s.stones === 1 ? ' stone' : ' stones') }));
    if (s.bot) out.push(h('span', { class: 'badge', text: 'built-in bot' }));
    return out;
  };

  /** The player list, best score first. */
  SP.renderPlayers = function (ul, f, mySeat) {
    if (isHex(f)) return SP.renderHexPlayers(ul, f, mySeat);
    const h = SP.h;
    const snakes = f.snakes.slice().sort((a, b) => b.score - a.score || a.seat - b.seat);
    if (!snakes.length) {
      SP.fill(ul, h('li', { class: 'empty', text: 'Nobody is playing.' }));
      return;
    }
    SP.fill(
      ul,
      snakes.map((s) => {
        const len = (s.body || []).length;
        const cls = [s.seat === mySeat ? 'me' : '', s.alive ? '' : 'dead'].filter(Boolean).join(' ');
        return h(
          'li',
          { class: cls || null, dataset: { seat: String(s.seat) } },
          SP.swatch(h('span', { class: 'swatch' }), s.color),
          h('span', { class: 'pname', title: s.name, text: s.name }),
          h('span', { class: 'pscore', title: 'score', text: String(s.score) }),
          h('span', { class: 'pinfo' }, h('span', { text: 'length ' + len }), SP.snakeBadges(s))
        );
      })
    );
  };

  SP.isHex = isHex;
  SP.isGrid = isGrid;

  /** The last finished game's result, or nothing. */
  SP.renderResult = function (el, f) {
    const text = f && f.result ? String(f.result) : '';
    // SnakeBattle's result is its last round's ("round 3 won by …").
    const said = f && f.game === 'snakebattle' ? text.charAt(0).toUpperCase() + text.slice(1) : (f && f.phase === 'over' ? 'Result: ' : 'Last game: ') + text;
    el.textContent = text ? said : '';
    el.classList.toggle('hidden', !text);
  };

  /** Hex: pieces per seat in a frame, as a Map. */
  SP.hexCounts = function (f) {
    const m = new Map();
    for (const p of f.pieces || []) m.set(p[2], (m.get(p[2]) || 0) + 1);
    return m;
  };

  /** Hex: the seat whose piece is on [x, y], or null. */
  SP.hexOwner = function (f, x, y) {
    for (const p of f.pieces || []) if (p[0] === x && p[1] === y) return p[2];
    return null;
  };

  /**
   * Hex: the legal moves of the piece on [x, y]: empty cells 1 step away
   * orthogonally (clone) or 2 steps away (jump), as `{x, y, dir, jump}`.
   */
  SP.hexTargets = function (f, x, y) {
    const n = f.size;
    const cells = Array.from(f.cells || '');
    const taken = new Set((f.pieces || []).map((p) => p[0] + ',' + p[1]));
    const out = [];
    for (const [dir, dx, dy] of [['UP', 0, -1], ['DOWN', 0, 1], ['LEFT', -1, 0], ['RIGHT', 1, 0]]) {
      for (const k of [1, 2]) {
        const tx = x + dx * k;
        const ty = y + dy * k;
        if (tx < 0 || ty < 0 || tx >= n || ty >= n) continue;
        if (cells[ty * n + tx] !== ' ' || taken.has(tx + ',' + ty)) continue;
        out.push({ x: tx, y: ty, dir, jump: k === 2 });
      }
    }
    return out;
  };

  /** Hex: the command for a move, `ACT(x,y),DIR` or `ACT(x,y,1),DIR`. */
  SP.hexCommand = function (x, y, dir, jump) {
    return 'ACT(' + x + ',' + y + (jump ? ',1' : '') + '),' + dir;
  };

  /** Hex: the players with their colours, piece counts and share of the board. */
  SP.renderHexPlayers = function (ul, f, mySeat) {
    const h = SP.h;
    const counts = SP.hexCounts(f);
    const free = Array.from(f.cells || '').filter((g) => g !== '☼').length || 1;
    const players = (f.players || []).slice().sort((a, b) => b.score - a.score || a.seat - b.seat);
    if (!players.length) {
      SP.fill(ul, h('li', { class: 'empty', text: 'Nobody is playing.' }));
      return;
    }
    SP.fill(
      ul,
      players.map((p) => {
        const n = counts.get(p.seat) || 0;
        const share = (100 * n) / free;
        const bar = h('span', { class: 'fill' });
        SP.swatch(bar, p.color);
        bar.style.width = Math.min(100, share).toFixed(1) + '%';
        const badges = [];
        if (p.seat === mySeat) badges.push(h('span', { class: 'badge ok', text: 'you' }));
        if (p.bot) badges.push(h('span', { class: 'badge', text: 'built-in bot' }));
        if (!n) badges.push(h('span', { class: 'badge warn', text: 'no pieces' }));
        const cls = [p.seat === mySeat ? 'me' : '', n ? '' : 'out'].filter(Boolean).join(' ');
        return h(
          'li',
          { class: cls || null, dataset: { seat: String(p.seat) } },
          SP.swatch(h('span', { class: 'swatch' }), p.color),
          h('span', { class: 'pname', title: p.name, text: p.name }),
          h('span', { class: 'pscore', title: 'score', text: String(p.score) }),
          h(
            'span',
            { class: 'pinfo' },
            h('span', { class: 'pieces', text: n + (n === 1 ? ' piece' : ' pieces') }),
            h('span', { class: 'faint', text: share < 10 && share > 0 ? share.toFixed(1) + '%' : Math.round(share) + '%' }),
            badges
          ),
          h('span', { class: 'meter', title: 'share of the board' }, bar)
        );
      })
    );
  };

  /** The event log: newest first, each tick's events once. */
  class EventLog {
    constructor(ul, max) {
      this.ul = ul;
      this.max = max || 80;
      this.lastTick = -1;
      this.paused = null;
      this.room = null;
      // An empty panel says so until the first event arrives.
      this.none = SP.h('li', { class: 'none', text: 'No events yet.' });
      this.ul.replaceChildren(this.none);
    }

    add(f) {
      if (f.room !== this.room) {
        this.room = f.room;
        this.lastTick = -1;
        this.paused = null;
      }
      if (this.paused !== null && this.paused !== f.paused) this.push(f.tick, f.paused ? 'the room was paused' : 'the room resumed', 'note');
      this.paused = f.paused;
      if (f.tick < this.lastTick) this.lastTick = -1; // the server restarted
      if (f.tick <= this.lastTick) return;
      this.lastTick = f.tick;
      // Newest first overall, but a tick's own events keep their order.
      for (const e of (f.events || []).slice().reverse()) this.push(f.tick, e, /^round |starts again/.test(e) ? 'round' : '');
    }

    push(tick, text, cls) {
      this.none.remove();
      const li = SP.h('li', { class: cls || null }, SP.h('span', { class: 't', text: '#' + tick }), SP.h('span', { class: 'e', text }));
      this.ul.insertBefore(li, this.ul.firstChild);
      while (this.ul.children.length > this.max) this.ul.removeChild(this.ul.lastChild);
    }
  }
  SP.EventLog = EventLog;
})();
