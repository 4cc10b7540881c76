/**
 * The "Check a score" page (`/check`): a disputed score settled at the table. Two photos of the board (before and
 * after the move) and the claimed score in, or the photo after it and the move as announced; the verdict, both
 * boards with the new tiles, the premiums counted and those used before, each word outlined, and every point as
 * sentences out. `?id=ID` shows a stored check (its permalink), `?game=ID&turn=N` a live game's move explained, and
 * a GCG file can be rescored to find its first wrong score.
 *
 * Size: the page's three ways in (photos, a stored check, a live move) and one verdict's every part, each a few lines
 * of DOM over the shared renderer (ui/render.ts) and client (api.ts).
 */

import type { ExplainedWord, PremiumName } from '../../server/engine/index.ts';
import { squareName } from '../../server/engine/index.ts';
import type {
  CheckView,
  GcgCheck,
  TurnCheck,
  UnsureSquare,
  Verification,
} from '../../server/protocol/index.ts';
import { type Answer, getCheck, getTurnCheck, postCheck, postGcgCheck } from '../api.ts';
import { boardView, browserTileSet, el, nameTileSetOptions, tileSetName } from '../ui/render.ts';

const SIZE = 15;
const PREMIUM_WORDS: Record<PremiumName, string> = {
  DL: 'double letter',
  TL: 'triple letter',
  DW: 'double word',
  TW: 'triple word',
};
/** One colour per word: the outline on the board and the mark beside its sentence. */
const WORD_COLOURS = ['#d84315', '#6a1b9a', '#00838f', '#2e7d32', '#ad1457', '#1565c0', '#5d4037', '#827717'];
const GCG_LIMIT = 1024 * 1024;

const key = (row: number, col: number) => row * SIZE + col;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

// ---------------------------------------------------------------------------------------------------------------
// Talking to the server

/** A failure to show on the page, in words for people. */
class Problem extends Error {}

/** The answer's body, or a Problem saying in words why there is none. */
async function api<T>(request: Promise<Answer<T>>): Promise<T> {
  const answer = await request;
  if (answer.ok) return answer.body;
  if (answer.status === 0)
    throw new Problem('Could not reach the server: is it still running, and is this device on its network?');
  throw new Problem(explainStatus(answer.status, answer.message));
}

/** A server's message as a sentence: capitalised, with a full stop. */
function sentence(text: string): string {
  const t = text.trim();
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? '' : '.'}`;
}

function explainStatus(status: number, message: string | undefined): string {
  switch (status) {
    case 413:
      return `${sentence(message ?? 'that is too large for the server')} A photo straight from the camera at a lower resolution will do.`;
    case 415:
      return message
        ? sentence(message)
        : 'That is not a photo the server can read: send a JPEG, PNG or WebP photo.';
    case 429:
      return `${sentence(message ?? 'too many checks from here in a short time')} Wait a minute, then try again.`;
    case 404:
      return `${sentence(message ?? 'not found')} The link may be incomplete, or the server no longer keeps it.`;
    default:
      return message ? sentence(message) : `The server could not do it (HTTP ${status}).`;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The boards

interface Marks {
  /** Tiles placed by the move. */
  readonly placed: ReadonlySet<number>;
  /** Premiums counted this turn, under new tiles. */
  readonly counted: ReadonlyMap<number, PremiumName>;
  /** Premiums under tiles of earlier turns: used before, not counted. */
  readonly covered: ReadonlyMap<number, PremiumName>;
  /** Face values of the tiles in the move's words (0 for a blank). */
  readonly values: ReadonlyMap<number, number>;
  /** Squares in doubt, numbered as in the list under the boards. */
  readonly unsure: ReadonlyMap<number, number>;
}

function marksOf(v: Verification, photo: 'before' | 'after'): Marks {
  const placed = new Set<number>();
  const counted = new Map<number, PremiumName>();
  const covered = new Map<number, PremiumName>();
  const values = new Map<number, number>();
  const unsure = new Map<number, number>();
  if (photo === 'after') {
    for (const t of v.move?.tiles ?? []) placed.add(key(t.row, t.col));
    for (const w of v.words)
      for (const l of w.letters) {
        values.set(key(l.row, l.col), l.value);
        if (l.premium) counted.set(key(l.row, l.col), l.premium);
        if (l.covered) covered.set(key(l.row, l.col), l.covered);
      }
  }
  v.unsure.forEach((u, i) => {
    if (u.photo === photo) unsure.set(key(u.row, u.col), i + 1);
  });
  return { placed, counted, covered, values, unsure };
}

/** The board before, when the check has none of its own (an announced move): the board after without the move. */
function derivedBefore(v: Verification): string[] | null {
  if (!v.boards || !v.move) return null;
  const rows = v.boards.after.map((r) => [...r]);
  for (const t of v.move.tiles) if (rows[t.row]) rows[t.row]![t.col] = '.';
  return rows.map((r) => r.join(''));
}

/** A 15×15 board of the check: its squares placed on the grid, so that the words' outlines can lie over them. */
function checkBoard(rows: readonly string[], marks: Marks, words: readonly ExplainedWord[] = []) {
  const board = boardView(rows, {
    placed: true,
    labels: true,
    decorate: (sq, { row: r, col: c }, ch) => {
      const k = key(r, c);
      if (ch === '?') sq.append(el('span', { class: 'letter' }, '?'));
      const value = ch === '.' ? undefined : marks.values.get(k);
      if (value !== undefined) sq.append(el('span', { class: 'value' }, String(value)));
      if (marks.placed.has(k)) sq.classList.add('new');
      const counted = marks.counted.get(k);
      if (counted) {
        sq.classList.add('counted');
        sq.append(el('span', { class: `badge b${counted}` }, counted));
        sq.title = `${squareName({ row: r, col: c })}: ${PREMIUM_WORDS[counted]}, counted this turn`;
      }
      const covered = marks.covered.get(k);
      if (covered) {
        sq.classList.add('used-before');
        sq.append(el('span', { class: 'badge used' }, covered));
        sq.title = `${squareName({ row: r, col: c })}: ${PREMIUM_WORDS[covered]} used before, not counted again`;
      }
      const doubt = marks.unsure.get(k);
      if (doubt !== undefined) {
        sq.classList.add('unsure');
        sq.append(el('span', { class: 'ring' }, String(doubt)));
      }
    },
  });
  words.forEach((w, i) => {
    const across = w.direction === 'across';
    const outline = el('div', {
      class: `word-outline${w.main ? ' main' : ''}`,
      'data-word': String(i),
      'aria-hidden': 'true',
    });
    outline.style.gridRow = `${w.start.row + 1} / span ${across ? 1 : w.letters.length}`;
    outline.style.gridColumn = `${w.start.col + 1} / span ${across ? w.letters.length : 1}`;
    outline.style.setProperty('--c', WORD_COLOURS[i % WORD_COLOURS.length]!);
    board.append(outline);
  });
  return board;
}

function legend(v: Verification): HTMLElement {
  const box = el('ul', { class: 'legend' });
  const item = (cls: string, mark: string, text: string) => {
    const li = el('li', {});
    li.append(el('span', { class: `swatch ${cls}` }, mark), ` ${text}`);
    box.append(li);
  };
  if (v.move?.tiles.length) item('new', '', 'new tile');
  item('pd', 'DL', 'double letter');
  item('pt', 'TL', 'triple letter');
  item('pD', 'DW', 'double word');
  item('pT', 'TW', 'triple word');
  if (v.words.some((w) => w.letters.some((l) => l.premium))) item('counted', '', 'premium counted');
  if (v.words.some((w) => w.letters.some((l) => l.covered))) item('used', '', 'used before: not counted');
  if (v.unsure.length) item('unsure', '', 'in doubt');
  return box;
}

// ---------------------------------------------------------------------------------------------------------------
// A verification, explained

function verdictBanner(v: Verification): HTMLElement {
  const box = el('div', { class: `verdict ${v.verdict}`, 'data-verdict': v.verdict });
  let title = 'Cannot settle';
  if (v.verdict === 'right') title = v.claimed === null ? `${v.points} points` : 'Right ✓';
  else if (v.verdict === 'wrong') title = `Wrong, by ${Math.abs((v.claimed ?? 0) - (v.points ?? 0))}`;
  box.append(el('h2', { class: 'verdict-title' }, title));
  // The message ends with the likeliest slip: said once, under its own heading.
  const message = v.cause ? v.message.replace(`: ${v.cause}.`, '.') : v.message;
  box.append(el('p', { class: 'message' }, message));
  if (v.cause) {
    const cause = el('p', { class: 'cause' });
    cause.append(el('strong', {}, 'Likeliest slip: '), v.cause);
    box.append(cause);
  }
  const others = v.causes.filter((c) => c.message !== v.cause);
  if (others.length) {
    const list = el('ul', { class: 'other-causes' });
    for (const c of others) list.append(el('li', {}, `or: ${c.message}`));
    box.append(list);
  }
  return box;
}

/** The arithmetic as sentences; hovering, focusing or tapping one lights its word on `board`. */
function sentences(v: Verification, board: HTMLElement | null): HTMLElement {
  const box = el('div', { class: 'arithmetic' });
  if (v.move) {
    const tiles = v.move.tiles.map((t) => `${t.tile} ${squareName(t)}`).join(', ');
    box.append(
      el(
        'p',
        { class: 'move-line' },
        `The move: ${v.words.find((w) => w.main)?.word ?? v.words[0]?.word ?? ''} at ${v.move.position} (${v.move.direction}), ${plural(v.move.tiles.length, 'new tile')}: ${tiles}`,
      ),
    );
  }
  if (v.words.length === 0) return box;
  const list = el('ol', { class: 'sentences' });
  const outlines = board ? [...board.querySelectorAll<HTMLElement>('.word-outline')] : [];
  const items: HTMLElement[] = [];
  let pinned: number | null = null;
  const show = (k: number | null) => {
    outlines.forEach((o, i) => {
      o.classList.toggle('active', i === k);
    });
    items.forEach((li, i) => {
      li.classList.toggle('active', i === k);
      li.setAttribute('aria-pressed', String(i === pinned));
    });
    board?.classList.toggle('focusing', k !== null);
  };
  v.words.forEach((w, i) => {
    const li = el('li', { 'data-word': String(i), tabindex: '0', role: 'button', 'aria-pressed': 'false' });
    li.style.setProperty('--c', WORD_COLOURS[i % WORD_COLOURS.length]!);
    li.append(
      el('span', { class: 'word-tag' }, w.main ? 'main word' : 'cross-word'),
      el('span', { class: 'sentence' }, w.sentence),
    );
    // A tap on a phone is a hover and a click: the click pins the word, a second one lets it go.
    li.onmouseenter = () => show(i);
    li.onmouseleave = () => show(pinned);
    const toggle = () => {
      pinned = pinned === i ? null : i;
      show(pinned);
    };
    li.onclick = toggle;
    li.onkeydown = (e) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      toggle();
    };
    items.push(li);
    list.append(li);
  });
  box.append(list);
  if (v.bingo > 0 && v.move)
    box.append(el('p', { class: 'bingo' }, `Bingo: all ${v.move.tiles.length} tiles played, + ${v.bingo}`));
  if (v.sentence !== null) {
    const total = el('p', { class: 'total-sentence' });
    total.append(el('strong', {}, 'Total: '), v.sentence);
    box.append(total);
  }
  box.append(el('p', { class: 'tap-hint' }, 'Tap or hover a line to see its word on the board.'));
  return box;
}

function unsureList(v: Verification): HTMLElement | null {
  if (v.unsure.length === 0) return null;
  const box = el('div', { class: 'unsure-list' });
  box.append(el('h3', {}, 'Squares in doubt'));
  const list = el('ol', {});
  for (const u of v.unsure) list.append(unsureItem(u));
  box.append(list);
  return box;
}

function unsureItem(u: UnsureSquare): HTMLElement {
  const li = el('li', { 'data-square': u.square });
  li.append(el('strong', {}, `${u.square}`), ` in the photo ${u.photo}: `);
  li.append(
    u.readings
      .map(
        (r) =>
          `${r.tile === '.' ? 'no tile' : r.tile === '?' ? 'a blank' : r.tile} (${Math.round(r.p * 100)}%) ${
            r.points === null ? 'would make no legal move' : `would score ${r.points}`
          }`,
      )
      .join('; '),
  );
  return li;
}

/** A verification with its boards, sentences and squares in doubt. */
function verificationView(v: Verification, options: { compact?: boolean } = {}): HTMLElement {
  const box = el('div', { class: `explained${options.compact ? ' compact' : ''}` });
  box.append(verdictBanner(v));
  const after = v.boards?.after ?? null;
  const beforeRows = v.boards?.before ?? derivedBefore(v);
  const board = after ? checkBoard(after, marksOf(v, 'after'), v.words) : null;
  const grid = el('div', { class: 'explained-grid' });
  if (board) {
    const fig = el('figure', { class: 'board-box after-board' });
    fig.append(board, el('figcaption', {}, 'After the move'), legend(v));
    grid.append(fig);
  }
  const side = el('div', { class: 'explained-side' });
  side.append(sentences(v, board));
  const doubts = unsureList(v);
  if (doubts) side.append(doubts);
  if (beforeRows) {
    const fig = el('figure', { class: 'board-box before-board' });
    fig.append(
      checkBoard(beforeRows, marksOf(v, 'before')),
      el(
        'figcaption',
        {},
        v.boards?.before ? 'Before the move' : 'Before the move (the board after it, without the new tiles)',
      ),
    );
    side.append(fig);
  }
  grid.append(side);
  box.append(grid);
  return box;
}

// ---------------------------------------------------------------------------------------------------------------
// The page

const result = document.getElementById('result')!;
const formTitle = document.getElementById('form-title')!;
const form = document.getElementById('check-form') as HTMLFormElement;
const formError = form.querySelector<HTMLElement>('.form-error')!;
const formBusy = form.querySelector<HTMLElement>('.form-busy')!;
const submit = form.querySelector<HTMLButtonElement>('button[type=submit]')!;
const langSelect = form.elements.namedItem('lang') as HTMLSelectElement;
nameTileSetOptions(langSelect);
const moveInput = form.elements.namedItem('move') as HTMLInputElement;
const chosen: { before?: File; after?: File } = {};

function say(box: HTMLElement, message: string | null) {
  box.hidden = message === null;
  box.textContent = message ?? '';
}

function showResult(...children: HTMLElement[]) {
  result.replaceChildren(...children);
  result.hidden = false;
  formTitle.textContent = 'Check another score';
}

/** Copy link, download the card: after a check, the page's address is its permalink. */
function shareBar(view: CheckView | null): HTMLElement {
  const bar = el('div', { class: 'share' });
  const url = new URL(view ? view.links.page : location.pathname + location.search, location.href).href;
  const copy = el('button', { type: 'button', class: 'copy-link' }, 'Copy link');
  const field = el('input', {
    type: 'text',
    readonly: '',
    value: url,
    class: 'link',
    'aria-label': 'link to this check',
  });
  const note = el('span', { class: 'copied', role: 'status' });
  copy.onclick = async () => {
    try {
      await navigator.clipboard.writeText(url);
      note.textContent = 'Link copied';
    } catch {
      // Not a secure context (plain http on the club's network): select it for the person to copy.
      (field as HTMLInputElement).select();
      note.textContent = document.execCommand('copy') ? 'Link copied' : 'Select the link and copy it';
    }
  };
  bar.append(copy);
  if (view)
    bar.append(
      el(
        'a',
        { href: view.links.card, download: `check-${view.id}.png`, class: 'card' },
        'Download card (PNG)',
      ),
    );
  bar.append(note, field);
  return bar;
}

function photosView(view: CheckView): HTMLElement {
  const box = el('div', { class: 'photos' });
  const add = (src: string, caption: string) => {
    const fig = el('figure', {});
    const link = el('a', { href: src, target: '_blank', rel: 'noopener' });
    link.append(el('img', { src, alt: `the photo ${caption.toLowerCase()}`, loading: 'lazy' }));
    fig.append(link, el('figcaption', {}, caption));
    box.append(fig);
  };
  if (view.photos.before) add(view.photos.before, 'Before the move');
  add(view.photos.after, 'After the move');
  return box;
}

function showCheck(view: CheckView) {
  const when = new Date(view.createdAt);
  const meta = el(
    'p',
    { class: 'meta' },
    `Checked ${Number.isNaN(when.getTime()) ? view.createdAt : when.toLocaleString()} · ${tileSetName(view.lang)} tiles`,
  );
  showResult(
    verificationView(view.verification),
    shareBar(view),
    el('h3', {}, 'The photos'),
    photosView(view),
    meta,
  );
  const title = result.querySelector('.verdict-title')?.textContent;
  if (title) document.title = `${title} · Check a score · tilecam`;
}

function showTurn(t: TurnCheck) {
  const head = el('div', { class: 'game-head' });
  head.append(
    el('h2', {}, `Turn ${t.turn + 1}: ${t.player}'s move`),
    el('p', { class: 'players' }, `in the game ${t.game.players.join(' v ')}`),
  );
  const back = el(
    'a',
    { href: `/board.html?game=${encodeURIComponent(t.game.id)}`, class: 'back' },
    '← Back to the scoreboard',
  );
  head.append(back);
  showResult(head, verificationView(t.verification), shareBar(null));
  document.title = `Turn ${t.turn + 1} explained · tilecam`;
}

function showLoadError(message: string) {
  const box = el('div', { class: 'load-error', role: 'alert' });
  box.append(el('h2', {}, 'Could not show this check'), el('p', {}, message));
  showResult(box);
}

// The photo drop zones: a tap opens the camera or the files, a photo can be dropped on them too.
for (const zone of form.querySelectorAll<HTMLElement>('.drop')) {
  const which = zone.dataset.photo as 'before' | 'after';
  const input = zone.querySelector('input')!;
  const preview = zone.querySelector('img')!;
  const hint = zone.querySelector<HTMLElement>('.drop-hint')!;
  /** The box emptied, saying `text`. */
  const clear = (text: string) => {
    if (preview.src) URL.revokeObjectURL(preview.src);
    delete chosen[which];
    preview.hidden = true;
    preview.removeAttribute('src');
    hint.textContent = text;
    zone.classList.remove('has-photo');
  };
  const choose = (file: File | undefined) => {
    if (!file) return clear('Take a photo, choose one, or drop it here');
    if (!file.type.startsWith('image/')) {
      say(formError, `${file.name} is not a photo: choose a JPEG, PNG or WebP picture of the board.`);
      // A photo chosen before stays. An empty box says it too, where it stays: the form's line is taken by what the
      // next press finds missing.
      if (!chosen[which]) clear(`${file.name} is not a photo: choose a JPEG, PNG or WebP picture`);
      return;
    }
    if (preview.src) URL.revokeObjectURL(preview.src);
    chosen[which] = file;
    preview.src = URL.createObjectURL(file);
    preview.hidden = false;
    hint.textContent = `${file.name} · tap to change`;
    zone.classList.add('has-photo');
    say(formError, null);
  };
  input.onchange = () => choose(input.files?.[0]);
  zone.addEventListener('dragover', (e) => {
    e.preventDefault();
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('dragging');
    const file = e.dataTransfer?.files[0];
    if (file) choose(file);
  });
}

// With an announced move the photo before is not needed.
const beforeZone = form.querySelector<HTMLElement>('.drop[data-photo="before"]')!;
moveInput.oninput = () => beforeZone.classList.toggle('not-needed', moveInput.value.trim() !== '');

const savedLang = localStorage.getItem('tilecam.check.lang');
if (savedLang === 'en' || savedLang === 'de') langSelect.value = savedLang;
// None chosen here yet: the browser's language says which set is likelier on the table.
else langSelect.value = browserTileSet();

form.onsubmit = async (e) => {
  e.preventDefault();
  say(formError, null);
  const claimed = (form.elements.namedItem('claimed') as HTMLInputElement).value.trim();
  const move = moveInput.value.trim();
  if (!chosen.after)
    return say(formError, 'Add the photo after the move: the board with the new tiles on it.');
  if (!move && !chosen.before)
    return say(
      formError,
      'Add the photo before the move too, or type the move as it was announced (e.g. QI H7).',
    );
  if (claimed && !/^\d{1,4}$/.test(claimed))
    return say(formError, 'The claimed score is a whole number of points, e.g. 24.');
  const data = new FormData();
  if (!move) data.append('before', chosen.before!, chosen.before!.name || 'before.jpg');
  data.append('after', chosen.after, chosen.after.name || 'after.jpg');
  if (claimed) data.append('claimed', claimed);
  data.append('lang', langSelect.value);
  if (move) data.append('move', move);
  localStorage.setItem('tilecam.check.lang', langSelect.value);
  submit.disabled = true;
  formBusy.hidden = false;
  try {
    const view = await api(postCheck(data));
    history.replaceState(null, '', view.links.page);
    showCheck(view);
    result.scrollIntoView({ behavior: 'smooth', block: 'start' });
  } catch (err) {
    say(formError, err instanceof Problem ? err.message : `Something went wrong: ${String(err)}`);
  } finally {
    submit.disabled = false;
    formBusy.hidden = true;
  }
};

// ---------------------------------------------------------------------------------------------------------------
// Rescoring a GCG file

const gcgForm = document.getElementById('gcg-form') as HTMLFormElement;
const gcgError = gcgForm.querySelector<HTMLElement>('.form-error')!;
nameTileSetOptions(gcgForm.elements.namedItem('lang') as HTMLSelectElement);
const gcgResult = document.getElementById('gcg-result')!;

function gcgView(g: GcgCheck): HTMLElement {
  const box = el('div', { class: 'gcg-view' });
  const scores = el('table', { class: 'gcg-scores' });
  for (const p of g.players) {
    const tr = el('tr', {});
    tr.append(el('th', {}, p.name), el('td', {}, String(p.score)));
    scores.append(tr);
  }
  box.append(
    el('p', {}, `Final scores, as tilecam computes them, after ${plural(g.turns, 'turn')}:`),
    scores,
  );
  if (!g.first && g.mismatches.length === 0) {
    box.append(
      el('p', { class: 'verdict right', 'data-verdict': 'right' }, 'Every score in the record is right ✓'),
    );
    return box;
  }
  box.append(
    el(
      'p',
      { class: 'gcg-count' },
      `${plural(g.mismatches.length, 'number')} in the record ${g.mismatches.length === 1 ? 'differs' : 'differ'} from the rules' score.`,
    ),
  );
  if (g.first) {
    const f = g.first;
    box.append(
      el('h3', {}, `The first wrong score: line ${f.line}, turn ${f.turn + 1}, ${f.player}`),
      el('p', { class: 'gcg-first' }, `recorded ${f.recorded}, computed ${f.computed}`),
      f.verification
        ? verificationView(f.verification, { compact: true })
        : el('p', {}, 'That line is no play (an end-of-game rack or a penalty): no words to explain.'),
    );
  } else {
    box.append(
      el('p', {}, "Every move's own score is right: a running total in the record is added up wrong."),
    );
  }
  if (g.mismatches.length) {
    const table = el('table', { class: 'gcg-mismatches' });
    const head = el('tr', {});
    for (const h of ['line', 'turn', 'what', 'recorded', 'computed']) head.append(el('th', {}, h));
    table.append(head);
    for (const m of g.mismatches) {
      const tr = el('tr', {});
      for (const cell of [m.line, m.turn + 1, m.field, m.recorded, m.computed])
        tr.append(el('td', {}, String(cell)));
      table.append(tr);
    }
    const details = el('details', {});
    details.append(el('summary', {}, 'Every difference'), table);
    box.append(details);
  }
  return box;
}

gcgForm.onsubmit = async (e) => {
  e.preventDefault();
  say(gcgError, null);
  const file = (gcgForm.elements.namedItem('gcg') as HTMLInputElement).files?.[0];
  if (!file) return say(gcgError, 'Choose a GCG file first.');
  if (file.size > GCG_LIMIT) return say(gcgError, 'That file is over 1 MB: a game record is far smaller.');
  const button = gcgForm.querySelector<HTMLButtonElement>('button')!;
  button.disabled = true;
  try {
    const lang = (gcgForm.elements.namedItem('lang') as HTMLSelectElement).value;
    const g = await api(postGcgCheck(await file.text(), lang));
    gcgResult.replaceChildren(gcgView(g));
  } catch (err) {
    gcgResult.replaceChildren();
    say(gcgError, err instanceof Problem ? err.message : `Something went wrong: ${String(err)}`);
  } finally {
    button.disabled = false;
  }
};

// ---------------------------------------------------------------------------------------------------------------
// What the address asks for

const params = new URLSearchParams(location.search);
const id = params.get('id');
const game = params.get('game');
const turn = params.get('turn');
if (id) {
  result.replaceChildren(el('p', { class: 'loading' }, 'Loading the check…'));
  result.hidden = false;
  api(getCheck(id)).then(showCheck, (err) =>
    showLoadError(err instanceof Problem ? err.message : String(err)),
  );
} else if (game && turn !== null) {
  result.replaceChildren(el('p', { class: 'loading' }, 'Loading the move…'));
  result.hidden = false;
  if (!/^\d+$/.test(turn)) showLoadError(`'${turn}' is not a turn number.`);
  else
    api(getTurnCheck(game, turn)).then(showTurn, (err) =>
      showLoadError(err instanceof Problem ? err.message : String(err)),
    );
}
