/**
 * DOM rendering of a snapshot: the board with premium squares, scores, move list, unseen tiles, pending reading.
 * Size: every part of the scoreboard's DOM, each a function of the snapshot.
 */

import {
  type PremiumName,
  squareName,
  standardLayout,
  type TileSet,
  tileSets,
} from '../../server/engine/index.ts';
import type { ClockView, GameSnapshot, Look, PendingView, WordView } from '../../server/protocol/index.ts';
import { gridHomography, project } from '../../vision/index.ts';
import { askText } from './dialog.ts';

const PREMIUM = standardLayout.rows;
const COLS = 'ABCDEFGHIJKLMNO';

/** A play as on a score sheet: `8D WINDY 32`, `- 0` for a pass (the analysis's RankedPlay and the like). */
export function playText(p: { position: string; word: string; score: number }): string {
  return `${p.position ? `${p.position} ` : ''}${p.word} ${p.score}`;
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  text?: string,
) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

type At = { readonly row: number; readonly col: number };

/** What a board shows besides its tiles; every page draws its boards with `boardView`. */
export interface BoardMarks {
  /** The last move's squares: class `last`. */
  readonly last?: readonly At[];
  /** Squares in doubt: class `doubt`. */
  readonly doubt?: readonly At[];
  /** Squares the camera was unsure of and the game's context decided (a person may want to look): `resolved`. */
  readonly resolved?: readonly At[];
  /** Letter values of the game's tile set (`tileValues`): each tile but a blank carries its value, `data-value`. */
  readonly values?: ReadonlyMap<string, number>;
  /** Each square placed on the grid by its row and column, so that outlines laid over the board line up with it. */
  readonly placed?: boolean;
  /** Empty premium squares carry their name (`DL`, `TW`…) and the centre its star, as a printed board. */
  readonly labels?: boolean;
  /** A page's own marks on a square, once it is drawn (`tile`: its letter, `.` when empty). */
  readonly decorate?: (square: HTMLElement, at: At, tile: string) => void;
}

/** A premium square's short name, by its letter in the layout. */
export const PREMIUM_NAME: Readonly<Record<string, PremiumName>> = { d: 'DL', t: 'TL', D: 'DW', T: 'TW' };

/** A 15×15 board: `rows` as the engine writes them, a tile's letter in a `.letter` span. */
export function boardView(rows: readonly string[], marks: BoardMarks = {}) {
  const board = el('div', { class: 'board', role: 'group', 'aria-label': 'the board' });
  const among = (list: readonly At[] | undefined, r: number, c: number) =>
    list?.some((s) => s.row === r && s.col === c) ?? false;
  for (let r = 0; r < 15; r++) {
    for (let c = 0; c < 15; c++) {
      const ch = rows[r]?.[c] ?? '.';
      const premium = PREMIUM[r]![c]!;
      const cell = el('div', { class: `sq p${premium}`, 'data-square': squareName({ row: r, col: c }) });
      if (marks.placed) cell.style.gridArea = `${r + 1} / ${c + 1}`;
      if (r === 7 && c === 7) cell.classList.add('star');
      if (ch !== '.') {
        cell.classList.add('tile');
        const blank = ch === '?' || ch !== ch.toUpperCase();
        if (blank) cell.classList.add('blank');
        // A blank of no known letter (`?`) is an empty tile.
        if (ch !== '?') cell.append(el('span', { class: 'letter' }, ch.toUpperCase()));
        const value = blank ? undefined : marks.values?.get(ch);
        if (value !== undefined) cell.dataset.value = String(value);
      } else if (marks.labels) {
        const name = r === 7 && c === 7 ? '★' : PREMIUM_NAME[premium];
        if (name) cell.append(el('span', { class: 'label' }, name));
      }
      if (among(marks.last, r, c)) cell.classList.add('last');
      if (among(marks.doubt, r, c)) cell.classList.add('doubt');
      if (among(marks.resolved, r, c)) cell.classList.add('resolved');
      marks.decorate?.(cell, { row: r, col: c }, ch);
      board.append(cell);
    }
  }
  return board;
}

/** Each letter's value in the game's tile set (`lang`), for the tiles' corners; empty for a set not known here. */
export function tileValues(lang: string): ReadonlyMap<string, number> {
  const set = (tileSets as Record<string, TileSet | undefined>)[lang];
  return new Map(set?.letters.map(([l, , v]) => [l.toUpperCase(), v]) ?? []);
}

/** A board with its coordinates around it: A–O across the top and bottom, 1–15 down both sides. */
export function boardFrame(board: HTMLElement): HTMLElement {
  const frame = el('div', { class: 'board-frame' });
  const across = (side: string) => {
    const box = el('div', { class: `coords across ${side}`, 'aria-hidden': 'true' });
    for (const c of COLS) box.append(el('span', {}, c));
    return box;
  };
  const down = (side: string) => {
    const box = el('div', { class: `coords down ${side}`, 'aria-hidden': 'true' });
    for (let r = 1; r <= 15; r++) box.append(el('span', {}, String(r)));
    return box;
  };
  frame.append(across('top'), down('left'), board, down('right'), across('bottom'));
  return frame;
}

/** What the colours of the board mean. */
export function legendView(): HTMLElement {
  const list = el('ul', { class: 'premium-legend', 'aria-label': 'premium squares' });
  for (const [cls, short, long] of [
    ['pT', 'TW', 'triple word'],
    ['pD', 'DW', 'double word'],
    ['pt', 'TL', 'triple letter'],
    ['pd', 'DL', 'double letter'],
    ['last', '', 'last move'],
  ] as const) {
    const li = el('li', {});
    li.append(el('span', { class: `swatch ${cls}` }, short), ` ${long}`);
    list.append(li);
  }
  return list;
}

/** The winner(s), the spread over the best of the rest, and why the game ended. */
function endedView(s: GameSnapshot & { ended: NonNullable<GameSnapshot['ended']> }): HTMLElement {
  const { winners, reason } = s.ended;
  const names = winners.map((w) => s.players[w]?.name ?? '?');
  const rest = s.players.filter((_, i) => !winners.includes(i)).map((p) => p.score);
  const top = winners.length ? (s.players[winners[0]!]?.score ?? 0) : 0;
  const spread = rest.length ? top - Math.max(...rest) : 0;
  const title =
    names.length === 0
      ? 'Game over'
      : names.length === 1
        ? `${names[0]} wins`
        : `A tie: ${names.join(' and ')}`;
  const banner = el('div', { class: 'ended', role: 'status' });
  const finals = [...s.players.map((p) => p.score)].sort((a, b) => b - a).join(' – ');
  banner.append(
    el('span', { class: 'ended-title' }, title),
    el(
      'span',
      { class: 'ended-detail' },
      `${spread > 0 ? `by ${spread} · ` : ''}${finals} · game over (${reason})`,
    ),
  );
  return banner;
}

/** A game clock: each player's minutes, and the points each minute over them (or part of one) costs. */
export type ClockLimit = ClockView['limit'];

/** Milliseconds as m:ss (h:mm:ss from an hour). */
export function clockText(ms: number): string {
  const total = Math.floor(Math.max(0, ms) / 1000);
  const [h, m, sec] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  const mm = h > 0 ? `${h}:${String(m).padStart(2, '0')}` : String(m);
  return `${mm}:${String(sec).padStart(2, '0')}`;
}

/**
 * Writes a player's time into `time`: the time used, or with a game clock the time left; past it, the overtime
 * (class `overtime`) with what it costs at the end, 10 points a minute or part of one: `−1:23 · −20`.
 */
export function showClockTime(time: HTMLElement, used: number, limit: ClockLimit): void {
  const left = limit ? limit.minutes * 60_000 - used : undefined;
  const over = left !== undefined && left < 0;
  time.classList.toggle('overtime', over);
  time.dataset.over = over ? 'true' : 'false';
  if (left === undefined) time.textContent = clockText(used);
  else if (!over) time.textContent = clockText(left);
  else
    time.textContent = `−${clockText(-left)} · −${Math.ceil(-left / 60_000) * (limit?.pointsPerMinute ?? 0)}`;
}

/**
 * Player `player`'s time on the turn clock as an element (class `time`): used, or left on a game clock. The running
 * turn's (the player to move's, while the game is live) counts from the snapshot's `since` by this browser's own
 * clock: it carries what `tickClocks` needs to move it on (the server sends a snapshot only when the game changes).
 * Undefined when the snapshot has no clock.
 */
export function clockTimeView(s: GameSnapshot, player: number): HTMLElement | undefined {
  const clock = s.clock;
  if (!clock) return undefined;
  const since = Date.parse(clock.since);
  const running = clock.running && !s.ended && player === s.toMove && Number.isFinite(since);
  const used = clock.used[player] ?? 0;
  const time = el('span', { class: running ? 'time running' : 'time' });
  if (clock.limit) {
    time.dataset.minutes = String(clock.limit.minutes);
    time.dataset.perMinute = String(clock.limit.pointsPerMinute);
  }
  if (running) {
    time.dataset.used = String(used);
    time.dataset.since = String(since);
  }
  showClockTime(time, running ? used + Date.now() - since : used, clock.limit);
  return time;
}

/** Moves every running clock under `root` on to this browser's now (see `clockTimeView`). */
export function tickClocks(root: ParentNode): void {
  for (const time of root.querySelectorAll<HTMLElement>('.time[data-since]')) {
    const { minutes, perMinute, used, since } = time.dataset;
    const limit = minutes ? { minutes: Number(minutes), pointsPerMinute: Number(perMinute) } : undefined;
    showClockTime(time, Number(used) + Date.now() - Number(since), limit);
  }
}

/**
 * A player's clock on the scoreboard, beside the score: the time (see `clockTimeView`) and, for a screen reader,
 * what it is.
 */
function playerClock(s: GameSnapshot, player: number): HTMLElement | undefined {
  const time = clockTimeView(s, player);
  if (!time) return undefined;
  const what = s.clock.limit ? 'time left on the game clock' : 'time used';
  const box = el('span', { class: 'clock', title: what });
  box.append(el('span', { class: 'sr-only' }, `${what}: `), time);
  return box;
}

/**
 * The players' names and scores, whose turn it is, and the game-over banner; with `clock`, each player's time on
 * the turn clock beside the score (the scoreboard; the overlay has its own clock panel).
 */
export function scoresView(s: GameSnapshot, options: { clock?: boolean } = {}) {
  const box = el('div', { class: 'scores' });
  const players = el('div', { class: 'players', 'data-count': String(s.players.length) });
  s.players.forEach((p, i) => {
    const toMove = i === s.toMove && !s.ended;
    const won = s.ended?.winners.includes(i) ?? false;
    const row = el('div', {
      class: `player${toMove ? ' to-move' : ''}${won ? ' winner' : ''}`,
      'data-player': String(i),
    });
    if (toMove) row.setAttribute('aria-current', 'true');
    const name = el('span', { class: 'name', title: p.name }, p.name);
    const score = el('span', { class: 'score' }, String(p.score));
    const mark = toMove
      ? el('span', { class: 'mark' }, 'to play')
      : won
        ? el('span', { class: 'mark' }, 'winner')
        : undefined;
    if (options.clock) {
      // The scoreboard's card: the name and the mark on a line, the score and the clock on the next.
      const top = el('div', { class: 'name-line' });
      top.append(name, ...(mark ? [mark] : []));
      const line = el('div', { class: 'score-line' });
      line.append(score, ...[playerClock(s, i)].filter((c) => c !== undefined));
      row.append(top, line);
    } else row.append(name, score, ...(mark ? [mark] : []));
    players.append(row);
  });
  box.append(players);
  if (s.ended) box.append(endedView(s as GameSnapshot & { ended: NonNullable<GameSnapshot['ended']> }));
  return box;
}

/** Premiums a word used: letter premiums under new tiles (`X 3L`) and its word multiplier (`×2`). */
function premiums(w: WordView): string {
  const parts = w.premiums.map((p) => `${p.tile.toUpperCase()} ${p.letterMultiplier}L`);
  if (w.wordMultiplier > 1) parts.push(`×${w.wordMultiplier}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/** The turns the headline tells of (not the end-of-game rack adjustments). */
const HEADLINED = new Set(['play', 'pass', 'exchange', 'withdraw', 'lost-turn', 'challenge-bonus']);

/** The last move as a headline: its main word, position and points, and every word's score with its premiums. */
export function headlineView(s: GameSnapshot): HTMLElement {
  const box = el('section', { class: 'headline', 'aria-live': 'polite', 'aria-label': 'last move' });
  const t = [...s.turns].reverse().find((turn) => HEADLINED.has(turn.kind));
  if (!t) {
    box.append(
      el('p', { class: 'head-line' }, 'No move yet'),
      el('p', { class: 'head-who' }, `${s.players[s.toMove]?.name ?? '?'} plays first`),
    );
    return box;
  }
  const who = s.players[t.player]?.name ?? '?';
  if (t.kind === 'play' && t.words?.length) {
    const main = t.words[0]!;
    const line = el('p', { class: 'head-line' });
    line.append(
      el('span', { class: 'head-word' }, main.word),
      el('span', { class: 'head-pos' }, t.position ?? ''),
      el('span', { class: 'head-points' }, `${t.points} pts`),
    );
    box.append(line, el('p', { class: 'head-who' }, `${who}${t.bingo ? ' · bingo!' : ''}`));
    const parts = el('ul', { class: 'breakdown' });
    for (const w of t.words) {
      const li = el('li', { class: w.unknown ? 'unknown' : '' });
      const mult = [
        ...w.premiums.map((p) => `${p.tile.toUpperCase()} ${p.letterMultiplier === 3 ? 'TL' : 'DL'}`),
        ...(w.wordMultiplier > 1 ? [w.wordMultiplier === 3 ? 'TW' : 'DW'] : []),
      ];
      li.append(el('span', { class: 'w' }, `${w.word}${w.unknown ? '*' : ''}`));
      if (mult.length) li.append(el('span', { class: 'm' }, mult.join(' ')));
      li.append(el('span', { class: 'p' }, String(w.score)));
      if (w.unknown) li.title = "not in the game's word list";
      parts.append(li);
    }
    if (t.bingo) {
      const li = el('li', { class: 'bingo' });
      li.append(el('span', { class: 'w' }, 'bingo'), el('span', { class: 'p' }, `+${t.bingo}`));
      parts.append(li);
    }
    box.append(parts);
    return box;
  }
  const text: Record<string, string> = {
    pass: `${who} passed`,
    exchange: `${who} exchanged`,
    withdraw: `${who}'s play withdrawn (${t.points})`,
    'lost-turn': `${who} loses the turn`,
    'challenge-bonus': `${who} +${t.points} (challenge)`,
  };
  box.append(el('p', { class: 'head-line' }, text[t.kind] ?? t.kind));
  return box;
}

/** The column names of the move list. */
export function movesHead(): HTMLElement {
  const head = el('div', { class: 'moves-head', 'aria-hidden': 'true' });
  for (const [cls, name] of [
    ['num', '#'],
    ['who', 'Player'],
    ['what', 'Move'],
    ['points', 'Pts'],
    ['total', 'Total'],
  ])
    head.append(el('span', { class: cls! }, name));
  return head;
}

/** How the move list names a turn that is not a play. */
const TURN_NAMES: Record<string, string> = {
  pass: 'pass',
  exchange: 'exchange',
  withdraw: 'play withdrawn',
  'lost-turn': 'loses the turn',
  'challenge-bonus': 'challenge bonus',
  'end-rack': 'the racks left (end of game)',
  'rack-penalty': 'tiles left on the rack',
  'time-penalty': 'overtime penalty',
};

/** The move list; with `onlyContext`, only the moves some of whose squares the game's context decided. */
export function movesView(s: GameSnapshot, onlyContext = false) {
  const list = el('ol', { class: 'moves' });
  for (const [index, t] of s.turns.entries()) {
    if (onlyContext && t.decided?.how !== 'context') continue;
    const li = el('li', { class: `turn ${t.kind}${t.decided?.how === 'context' ? ' by-context' : ''}` });
    if (t.decided?.how === 'context')
      li.title = `decided by the game's context: ${(t.decided.squares ?? [])
        .map(
          (q) =>
            `${squareName(q)} ${q.tile} (read ${q.options.map((o) => `${o.tile} ${Math.round(o.p * 100)}%`).join(', ')})`,
        )
        .join('; ')}`;
    const who = s.players[t.player]?.name ?? '?';
    let what: string = TURN_NAMES[t.kind] ?? t.kind;
    if (t.words) {
      what = `${t.position} ${t.words
        .map((w) => `${w.word}${w.unknown ? '*' : ''} ${w.score}${premiums(w)}`)
        .join(' + ')}${t.bingo ? ` + bingo ${t.bingo}` : ''}`;
    }
    // A play opens its explanation, every point of it, on the check page.
    const explained =
      t.kind === 'play'
        ? el(
            'a',
            {
              class: 'what',
              href: `/check?game=${encodeURIComponent(s.id)}&turn=${index}`,
              target: '_blank',
              rel: 'noopener',
              title: 'explain this score',
            },
            what,
          )
        : el('span', { class: 'what' }, what);
    li.append(
      el('span', { class: 'num' }, String(index + 1)),
      el('span', { class: 'who', title: who }, who),
      explained,
      el('span', { class: 'points' }, `${t.points >= 0 ? '+' : ''}${t.points}`),
      el('span', { class: 'total' }, String(t.cumulative)),
    );
    list.append(li);
  }
  return list;
}

/**
 * The tile tracker: every tile of the set as a cell of a grid, those seen on the board struck through, and the
 * counts of the unseen tiles (vowels, consonants, blanks, the bag).
 */
export function unseenView(s: GameSnapshot) {
  const box = el('div', { class: 'unseen' });
  const set = (tileSets as Record<string, TileSet | undefined>)[s.lang];
  const grid = el('div', { class: 'letters', 'aria-label': 'tiles: those played struck through' });
  const groups: [string, number][] = set
    ? [...set.letters.map(([l, n]): [string, number] => [l.toUpperCase(), n]), ['?', set.blanks]]
    : Object.entries(s.unseen.tiles);
  for (const [letter, count] of groups) {
    const left = s.unseen.tiles[letter] ?? s.unseen.tiles[letter.toLowerCase()] ?? 0;
    const group = el('span', {
      class: `group${left === 0 ? ' gone' : ''}`,
      title: `${letter}: ${left} of ${count} unseen`,
    });
    for (let i = 0; i < count; i++)
      group.append(
        el('span', { class: i < count - left ? 'tt played' : 'tt' }, letter === '?' ? '?' : letter),
      );
    grid.append(group);
  }
  box.append(
    el(
      'div',
      { class: 'counts' },
      `${s.unseen.total} unseen · ${count(s.unseen.vowels, 'vowel')} · ${count(s.unseen.consonants, 'consonant')} · ${count(s.unseen.blanks, 'blank')} · bag ${s.unseen.bag}`,
    ),
    grid,
  );
  return box;
}

/** Runs `onClick` with the 0-based square and its element when a square of a `boardView` is clicked. */
export function onSquareClick(
  board: HTMLElement,
  onClick: (row: number, col: number, square: HTMLElement) => void,
): void {
  board.addEventListener('click', (e) => {
    const sq = (e.target as HTMLElement).closest('[data-square]') as HTMLElement | null;
    if (!sq) return;
    const index = [...board.children].indexOf(sq);
    onClick(Math.floor(index / 15), index % 15, sq);
  });
}

/**
 * Asks a person, in a dialog, what is on a square: a letter (upper case), `?` a blank, and `.` no tile when `empty`
 * allows it; `letters`, the game's tile set, when known. Undefined when they cancel.
 */
export function askTile(
  question: string,
  empty = true,
  letters?: readonly string[],
): Promise<string | undefined> {
  const extra = empty ? ', ? for a blank, . for no tile' : ' or ? for a blank';
  return askText({
    title: question,
    field: { label: `One letter${extra}`, maxlength: 1, name: 'tile' },
    submit: 'Fix the square',
    check: (raw) => {
      const tile = raw.trim();
      if (tile === '?' || (empty && tile === '.')) return { value: tile };
      const upper = tile.toUpperCase();
      if (/^\p{L}$/u.test(tile) && (!letters || letters.includes(upper))) return { value: upper };
      return { error: `Type one letter of the tile set${extra}.` };
    },
  });
}

/** The letters of the game's tile set (`lang`), upper case; undefined for a set this page does not know. */
export function setLetters(lang: string): readonly string[] | undefined {
  return (tileSets as Record<string, TileSet | undefined>)[lang]?.letters.map(([l]) => l.toUpperCase());
}

/**
 * A scorekeeper's button in `box`: `action` builds the action, perhaps after a dialog (undefined: do nothing), `act`
 * sends it.
 */
export function actionButton<A>(
  box: HTMLElement,
  label: string,
  action: () => A | undefined | Promise<A | undefined>,
  act: (action: A) => void,
): void {
  const b = el('button', { type: 'button', 'data-action': label.toLowerCase().replace(/\s+/g, '-') }, label);
  b.onclick = async () => {
    const a = await action();
    if (a) act(a);
  };
  box.append(b);
}

/** Grid coordinates to the held photo's pixels, from the grid's corners there; undefined when they are degenerate. */
export function gridToPhoto(
  corners: Look['corners'],
): ((x: number, y: number) => [number, number]) | undefined {
  const h = gridHomography(corners);
  return h.every(Number.isFinite) ? (x, y) => project(h, x, y) : undefined;
}

/** The held photos, loaded once by address: a snapshot re-renders the panel often, the photo stays. */
const photos = new Map<string, HTMLImageElement>();
function photo(src: string): HTMLImageElement {
  let img = photos.get(src);
  if (!img) {
    img = new Image();
    img.decoding = 'async';
    img.src = src;
    photos.set(src, img);
  }
  return img;
}

/** The size of a square's zoomed crop, in CSS pixels. */
const CROP = 120;

/**
 * Draws the square (`row`, `col`) of the held photo zoomed into `canvas`, with half a square of its neighbours
 * around it and the square outlined, once the photo is loaded.
 */
function drawCrop(
  canvas: HTMLCanvasElement,
  img: HTMLImageElement,
  map: (x: number, y: number) => [number, number],
  row: number,
  col: number,
): void {
  const draw = () => {
    const ctx = canvas.getContext('2d');
    if (!ctx || !img.naturalWidth) return;
    const ring = [
      [col - 0.5, row - 0.5],
      [col + 1.5, row - 0.5],
      [col + 1.5, row + 1.5],
      [col - 0.5, row + 1.5],
    ].map(([x, y]) => map(x!, y!));
    const xs = ring.map((p) => p[0]);
    const ys = ring.map((p) => p[1]);
    const [x0, y0] = [Math.min(...xs), Math.min(...ys)];
    const [w, h] = [Math.max(...xs) - x0, Math.max(...ys) - y0];
    if (!(w > 0 && h > 0)) return;
    const size = canvas.width;
    const scale = size / Math.max(w, h);
    // Centred: a bounding box that is not square leaves a margin on the short side.
    const [dx, dy] = [(size - w * scale) / 2, (size - h * scale) / 2];
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, size, size);
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(img, x0, y0, w, h, dx, dy, w * scale, h * scale);
    const at = (x: number, y: number): [number, number] => {
      const [px, py] = map(x, y);
      return [dx + (px - x0) * scale, dy + (py - y0) * scale];
    };
    ctx.beginPath();
    for (const [x, y] of [
      [col, row],
      [col + 1, row],
      [col + 1, row + 1],
      [col, row + 1],
    ] as const)
      ctx.lineTo(...at(x, y));
    ctx.closePath();
    ctx.lineWidth = Math.max(2, size / 40);
    ctx.strokeStyle = '#000';
    ctx.stroke();
    ctx.lineWidth = Math.max(1, size / 80);
    ctx.strokeStyle = '#ffc94d';
    ctx.stroke();
  };
  if (img.complete && img.naturalWidth) draw();
  else img.addEventListener('load', draw, { once: true });
}

/** How a reading reads on its button: the letter, "empty" for no tile, "blank" for a blank. */
function readingLabel(tile: string): string {
  return tile === '.' ? 'empty' : tile === '?' ? 'blank' : tile;
}

/**
 * The squares in doubt of a held reading, each zoomed from the held photo (when the snapshot says where the board
 * is in it) with its likeliest readings as buttons (`pick`) and "other letter…" (`other`); without `look`, only
 * the squares' names. No buttons without `pick` (a viewer's page).
 */
export function heldSquaresView(
  p: PendingView,
  pick?: (row: number, col: number, tile: string) => void,
  other?: (row: number, col: number, name: string) => void,
): HTMLElement {
  const list = el('ul', { class: 'held-squares' });
  const map = p.look ? gridToPhoto(p.look.corners) : undefined;
  const img = map ? photo(p.photo) : undefined;
  for (const { row, col } of p.squares) {
    const name = squareName({ row, col });
    const item = el('li', { class: 'held-square', 'data-held': name });
    const now = p.board[row]?.[col] ?? '.';
    const head = el('p', { class: 'held-name' });
    head.append(el('strong', {}, name), ` read as ${readingLabel(now === '#' ? '.' : now)}`);
    if (map && img) {
      const canvas = el('canvas', {
        class: 'held-crop',
        role: 'img',
        'aria-label': `the square ${name} in the photo, with its neighbours`,
      }) as HTMLCanvasElement;
      const ratio = Math.min(3, Math.max(1, Math.round(globalThis.devicePixelRatio || 1)));
      canvas.width = canvas.height = CROP * ratio;
      drawCrop(canvas, img, map, row, col);
      item.append(canvas);
    }
    const seen = p.look?.squares.find((q) => q.row === row && q.col === col)?.options ?? [];
    // A hand over the square takes a share of the model's belief: said, as it is no reading to pick.
    const hand = seen.find((o) => o.tile === '#');
    if (hand && hand.p >= 0.2)
      head.append(el('span', { class: 'held-hand' }, `a hand over it (${Math.round(hand.p * 100)}%)`));
    item.append(head);
    if (pick) {
      const options = seen.filter((o) => o.tile !== '#');
      const buttons = el('div', { class: 'held-options' });
      for (const o of options) {
        const percent = o.p * 100 < 1 ? '<1%' : `${Math.round(o.p * 100)}%`;
        const b = el('button', {
          type: 'button',
          class: 'held-option',
          'data-action': `read-${name}-${o.tile}`,
          'data-tile': o.tile,
          'aria-label': `${name}: ${readingLabel(o.tile)} (${percent})`,
        });
        b.append(
          el('span', { class: 'held-tile' }, readingLabel(o.tile)),
          el('span', { class: 'held-p' }, percent),
        );
        if (o.tile === now) b.classList.add('current');
        b.onclick = () => pick(row, col, o.tile);
        buttons.append(b);
      }
      if (other) {
        const b = el(
          'button',
          { type: 'button', class: 'held-other', 'data-action': `other-${name}` },
          'other letter…',
        );
        b.onclick = () => other(row, col, name);
        buttons.append(b);
      }
      item.append(buttons);
    }
    list.append(item);
  }
  return list;
}

/** The tile set a page starts on before one is chosen there: the browser's language's, where tilecam reads it (German
 *  on a German browser), else English. */
export function browserTileSet(): 'en' | 'de' {
  return /^de\b/i.test(navigator.language) ? 'de' : 'en';
}

/**
 * The tile sets' names on every page, in English (the pages are in English; the sets' data files name themselves in
 * their own language: "Deutsch").
 */
const TILE_SET_NAMES: Readonly<Record<string, string>> = {
  en: 'English',
  de: 'German',
  fr: 'French',
  nl: 'Dutch',
  pl: 'Polish',
};

/** A tile set's name (`de` → German); the id itself for a set this page does not know. */
export function tileSetName(id: string): string {
  return TILE_SET_NAMES[id] ?? id;
}

/** Names each option of a tile-set `<select>` (its value an id) as every page names it; other options stay. */
export function nameTileSetOptions(select: HTMLSelectElement): void {
  for (const option of select.options)
    if (TILE_SET_NAMES[option.value]) option.text = tileSetName(option.value);
}

/**
 * What a page says when the server has no such game (a mistyped or old link): what happened, and the way back to
 * the start page, where the games are listed.
 */
export function noSuchGameView(game: string): HTMLElement {
  const box = el('section', { class: 'no-game', role: 'alert', 'aria-labelledby': 'no-game-title' });
  const text = el(
    'p',
    {},
    `There is no game "${game}" on this server: the link may be mistyped or cut short, or the game was deleted. `,
  );
  text.append(el('a', { href: '/' }, 'Go to the start page'), ' to find the game or start one.');
  box.append(el('h2', { id: 'no-game-title' }, 'No such game'), text);
  return box;
}

/**
 * What the move list's marks mean, said beside it when the list shows one: ≈ (a move some of whose squares the
 * game's context decided, the camera being unsure) and * (a word not in the game's word list). Nothing when none is.
 */
export function movesKeyView(s: GameSnapshot): HTMLElement | undefined {
  const context = s.turns.some((t) => t.decided?.how === 'context');
  const unknown = s.turns.some((t) => t.words?.some((w) => w.unknown));
  // A blank no lexicon could name (more than one letter makes every word): it stays `?` until someone names it.
  const unnamed = s.turns.some((t) => t.words?.some((w) => w.word.includes('?')));
  if (!context && !unknown && !unnamed) return undefined;
  const list = el('ul', { class: 'moves-key', 'aria-label': 'marks in the move list' });
  if (context) {
    const li = el('li', {});
    li.append(
      el('span', { class: 'moves-mark context' }, '≈'),
      ' decided by the game: the camera was unsure of a square, and the legal move, the tiles left and the word list settled it',
    );
    list.append(li);
  }
  if (unknown) {
    const li = el('li', {});
    li.append(el('span', { class: 'moves-mark unknown' }, 'WORD*'), " a word not in the game's word list");
    list.append(li);
  }
  if (unnamed) {
    const li = el('li', { class: 'unnamed-blank' });
    li.append(
      el('span', { class: 'moves-mark blank' }, '?'),
      ' a blank whose letter is not known (more than one letter makes the words): the scorekeeper names it by clicking it on the board',
    );
    list.append(li);
  }
  return list;
}

/** `1 vowel`, `2 vowels`, `0 blanks`. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
