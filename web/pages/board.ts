/**
 * The scoreboard page (`/board.html?game=ID`), and with the scorekeeper's token in the address
 * (`#token=…`) the scorekeeper's controls: the pending reading with its photo and squares in doubt (Scrabble Me: one
 * panel per held board), what it would score, its alert (web/ui/held.ts), fix a square, confirm, pass, exchange,
 * challenge, name a blank, undo, end the game. Each player's turn clock beside the score, the running turn counting.
 *
 * Size: one page's controls, each a few lines of DOM wiring over the shared renderer (ui/render.ts).
 */

import { squareName } from '../../server/engine/index.ts';
import type {
  ActionInput,
  GameSnapshot,
  MeActionInput,
  MeSnapshot,
  Snapshot,
} from '../../server/protocol/index.ts';
import { getGame, getGcgFile, getRackKeys, getRacksLeft, sendAction } from '../api.ts';
import { type ConnectionState, connect } from '../connection.ts';
import { bestPlaysPanel } from '../ui/best-plays.ts';
import { askFields, askText, choose, confirmDialog } from '../ui/dialog.ts';
import { racksFromTracker } from '../ui/end-racks.ts';
import { heldKey, heldPanel, newlyHeld, soundToggle } from '../ui/held.ts';
import { meView } from '../ui/me.ts';
import {
  actionButton,
  askTile,
  boardFrame,
  boardView,
  el,
  headlineView,
  legendView,
  movesHead,
  movesKeyView,
  movesView,
  noSuchGameView,
  onSquareClick,
  playText,
  scoresView,
  setLetters,
  tickClocks,
  tileValues,
  unseenView,
} from '../ui/render.ts';
import { gameShareLinks, sharePanel } from '../ui/share.ts';
import { sourcesView } from '../ui/sources.ts';

const params = new URLSearchParams(location.search);
const game = params.get('game') ?? '';
const token = new URLSearchParams(location.hash.slice(1)).get('token');
const root = document.getElementById('app')!;
const status = document.getElementById('status')!;
let latest: Snapshot | undefined;
/**
 * The plays the page showed last and where the last of them lies: a play that lands after it is animated in (not on
 * the first render, nor when only a total changes or a play is taken back).
 */
let shown: { plays: number; squares: string } | undefined;

/**
 * The scoreboard's theme: dark by default (a TV in a room), `?theme=light`, or `?theme=auto` to follow the
 * system's `prefers-color-scheme`.
 */
function applyTheme(): void {
  const wanted = params.get('theme');
  const light = () =>
    wanted === 'light' || (wanted === 'auto' && matchMedia('(prefers-color-scheme: light)').matches);
  const set = () => document.body.classList.toggle('light', light());
  set();
  if (wanted === 'auto') matchMedia('(prefers-color-scheme: light)').addEventListener('change', set);
}
applyTheme();
/** The scorekeeper's filter of the move list: only the moves some of whose squares the context decided. */
let onlyContext = false;
/** The latest picture from each camera (by seat), for the scorekeeper to see what the cameras see. */
const cameras = new Map<number, HTMLImageElement>();
/** What went wrong with the scorekeeper's last action, shown by the controls; cleared by the next that succeeds. */
const message = el('p', { class: 'action-error', role: 'alert', id: 'action-message' });
message.hidden = true;

/**
 * The scorekeeper's "Share" panel (the game's links with QR codes: a phone at the table scans its camera link),
 * folded away under the controls; made once, kept across renders (its address and open state stay).
 */
let share: HTMLDetailsElement | undefined;
function shareView(s: Snapshot): HTMLDetailsElement {
  if (!share) {
    const details = el('details', { class: 'share-details' }) as HTMLDetailsElement;
    share = details;
    const shared = { id: game, players: s.players.map((p) => p.name), variant: s.variant };
    details.append(
      el('summary', {}, 'Share: links and QR codes for the table, the TV and the stream'),
      sharePanel(gameShareLinks(shared, token ?? ''), ''),
    );
    // The rack cameras' links once their keys have come (each key opens one player's rack camera only).
    if (token && s.variant !== 'scrabble-me')
      void getRackKeys(game, token).then((keys) => {
        if (keys.ok)
          details.lastElementChild?.replaceWith(
            sharePanel(gameShareLinks(shared, token, keys.body.keys), ''),
          );
      });
  }
  return share;
}

/** The scorekeeper's "Best plays" panel (ui/best-plays.ts), made once and kept across renders. */
let best: ReturnType<typeof bestPlaysPanel> | undefined;
function bestView(s: GameSnapshot): HTMLDetailsElement {
  best ??= bestPlaysPanel(game ?? '', token ?? '');
  best.update(s);
  return best.panel;
}

function showError(text: string | undefined): void {
  message.textContent = text ?? '';
  message.hidden = !text;
}

function cameraView(names: readonly string[]): HTMLElement {
  const box = el('div', { class: 'cameras' });
  for (const [seat, img] of [...cameras].sort((a, b) => a[0] - b[0])) {
    const fig = el('figure', {});
    fig.append(img, el('figcaption', {}, names[seat] ? `camera at ${names[seat]}'s seat` : 'camera'));
    box.append(fig);
  }
  return box;
}

/**
 * Sends a scorekeeper's action, made against the game as this page shows it (`version`): a doubled click, or a
 * click on a page that had not caught up, is refused by the server and changes nothing.
 */
async function act(action: ActionInput | MeActionInput): Promise<void> {
  const answer = await sendAction(game, token ?? '', {
    ...action,
    ...(latest ? { version: latest.version } : {}),
  });
  if (answer.status === 0)
    return showError('The server could not be reached: nothing was recorded. Try again.');
  // The reply carries the game as it is now: shown at once, so the next click is made against it.
  if (answer.ok) {
    showError(undefined);
    return void render(answer.body.snapshot);
  }
  if (answer.code === 'stale') status.textContent = 'the game had moved on: nothing was recorded twice';
  else showError(answer.message ?? 'the action failed');
  // The server cannot tell whether it was recorded (an answer lost in a hall's fault): the game as it is now shows.
  if (answer.code === 'unknown') await reload();
}

/** The game as the server has it now, shown (after an answer that could not say what was recorded); else the
 *  WebSocket's next snapshot shows it. */
async function reload(): Promise<void> {
  const answer = await getGame(game);
  if (answer.ok) render(answer.body);
}

/** The camera streams the server pulls, and why one stopped: the scorekeeper must see a camera that went away. */
const streams = (s: Snapshot) => sourcesView(s, game, token ?? '', () => latest && render(latest));

/** What the end of the game does with the letters left on the racks: the rule, when the snapshot names it. */
function endRackNote(s: GameSnapshot): string {
  const rule = (s as GameSnapshot & { endRack?: string }).endRack;
  if (rule === 'seeds')
    return 'Each player loses the value of the letters left on their rack; a player who went out (empty rack) gains their sum.';
  if (rule === 'double')
    return 'A player who went out (empty rack) gains twice the value of the letters left on the other racks.';
  return "The letters left on the racks are scored by the game's end-of-game rule. Leave a rack empty for a player who went out.";
}

function controls(s: GameSnapshot) {
  const box = el('div', { class: 'controls' });
  const button = (label: string, action: () => ActionInput | undefined | Promise<ActionInput | undefined>) =>
    actionButton(box, label, action, (a) => void act(a));
  const rackSize = s.variant === 'nine-tile' ? 9 : 7;
  const letters = setLetters(s.lang);
  const undo = () =>
    button('Undo', async () =>
      (await confirmDialog({
        title: 'Undo the last move?',
        text: 'The last thing recorded is taken back, and every total after it re-derives.',
        yes: 'Undo the last move',
        no: 'Keep it',
      }))
        ? { type: 'undo' }
        : undefined,
    );
  // Once the game has ended, only what still makes sense: take the end back (the GCG file is by the moves).
  if (s.ended) {
    undo();
    return box;
  }
  button('End turn', () => ({ type: 'end-turn' }));
  button('Pass', () => ({ type: 'pass' }));
  button('Exchange', async () => {
    const count = await askText({
      title: 'Exchange tiles',
      text: `${s.players[s.toMove]?.name ?? 'The player to move'} exchanges tiles with the bag.`,
      field: {
        label: `How many tiles were exchanged? (1 to ${rackSize})`,
        type: 'number',
        inputmode: 'numeric',
        min: 1,
        max: rackSize,
        value: String(rackSize),
        name: 'count',
      },
      submit: 'Record the exchange',
      check: (raw) => {
        const n = Number(raw.trim());
        return raw.trim() !== '' && Number.isInteger(n) && n >= 1 && n <= rackSize
          ? { value: n }
          : { error: `Type a whole number from 1 to ${rackSize}.` };
      },
    });
    return count === undefined ? undefined : { type: 'exchange', count };
  });
  button('Challenge', async () => {
    const last = [...s.turns].reverse().find((t) => t.kind === 'play');
    const player = await choose({
      title: 'Who challenged?',
      text: last ? `The play challenged: ${s.players[last.player]?.name ?? '?'}'s last play.` : undefined,
      choices: s.players.flatMap((p, i) =>
        i === last?.player ? [] : [{ label: p.name, value: i, name: `player-${i}` }],
      ),
    });
    if (player === undefined) return undefined;
    const acceptable = await choose({
      title: 'Is the play acceptable?',
      text: `${s.players[player]?.name ?? '?'} challenged.`,
      choices: [
        { label: 'The play is acceptable', value: true, name: 'acceptable' },
        { label: 'The play is a phony', value: false, name: 'phony' },
      ],
    });
    return acceptable === undefined ? undefined : { type: 'challenge', player, acceptable };
  });
  undo();
  button('End game', async () => {
    // The racks kept with the last moves tell what is left; else, with the bag empty and one player out, the tracker
    // knows the other rack: filled in, to check and change.
    const tracked = racksFromTracker(s, rackSize);
    const answer = await getRacksLeft(game, token ?? '');
    const kept = answer.ok ? answer.body.left : [];
    const fromKept = kept.some((r) => r !== null);
    // The tracker, where it knows, is certain; a kept rack is the scorekeeper's word.
    const known = tracked ?? (fromKept ? s.players.map((_, i) => kept[i] ?? '') : undefined);
    const racks = await askFields({
      title: 'End the game',
      text:
        !tracked && fromKept
          ? 'Filled in from the racks you kept with the last moves, less the tiles played. Check them (? for a blank).'
          : known
            ? 'The bag is empty: the tiles not on the board are filled in as the last rack left. Check them (? for a blank).'
            : 'The letters left on each rack (? for a blank); leave it empty if none.',
      className: 'racks',
      fields: s.players.map((p, i) => ({
        label: `${p.name}'s rack`,
        maxlength: rackSize,
        placeholder: 'empty',
        name: `rack-${i}`,
        ...(known ? { value: known[i] } : {}),
      })),
      note: endRackNote(s),
      submit: 'End the game',
      check: (values) => {
        const racks = values.map((v) => v.replace(/\s+/g, '').toUpperCase());
        for (const [i, rack] of racks.entries()) {
          if (rack.length > rackSize) return { error: `A rack holds at most ${rackSize} tiles.`, field: i };
          const wrong = [...rack].find(
            (t) => t !== '?' && (letters ? !letters.includes(t) : !/^\p{L}$/u.test(t)),
          );
          if (wrong)
            return { error: `'${wrong}' is not a tile of this set: letters, or ? for a blank.`, field: i };
        }
        return { value: racks };
      },
    });
    return racks === undefined ? undefined : { type: 'end', racks };
  });
  return box;
}

/**
 * The reading held for the scorekeeper (web/ui/held.ts's panel): an alert with the reasons, each square in doubt zoomed
 * from the photo with its likeliest readings to pick (or another letter), what it would score if confirmed,
 * "Confirm this board", and the reading itself to fix by a click.
 */
function pendingView(s: GameSnapshot): HTMLElement {
  const p = s.pending!;
  const letters = setLetters(s.lang);
  return heldPanel(p, {
    key: '',
    title: token ? 'A reading waits for you' : 'Waiting for the scorekeeper to confirm the board',
    actions: token
      ? {
          pick: (row, col, tile) => void act({ type: 'correct', row, col, tile }),
          ask: async (row, col, name) => {
            const tile = await askTile(`What is on ${name}?`, true, letters);
            if (tile) void act({ type: 'correct', row, col, tile });
          },
          confirm: () => void act({ type: 'confirm', board: [...p.board] }),
          dismiss: () => void act({ type: 'dismiss' }),
        }
      : undefined,
  });
}

/**
 * Scrabble Me: a panel per board whose reading is held, as a classic game's (its buttons fix that board's squares
 * and confirm that board's reading).
 */
function meHeldViews(s: MeSnapshot): HTMLElement[] {
  const letters = setLetters(s.lang);
  return s.boards.flatMap((b, board) => {
    const p = b.pending;
    if (!p) return [];
    const name = `Board ${board + 1} (${s.players[b.holder]?.name ?? '?'})`;
    return [
      heldPanel(p, {
        key: String(board + 1),
        board,
        title: token
          ? `${name}: a reading waits for you`
          : `${name}: waiting for the scorekeeper to confirm the board`,
        actions: token
          ? {
              pick: (row, col, tile) => void act({ type: 'correct', board, row, col, tile }),
              ask: async (row, col, square) => {
                const tile = await askTile(`Board ${board + 1}, ${square}: what is on it?`, true, letters);
                if (tile) void act({ type: 'correct', board, row, col, tile });
              },
              confirm: () => void act({ type: 'confirm', board }),
            }
          : undefined,
      }),
    ];
  });
}

/**
 * The held readings' alert on the scorekeeper's page: a panel whose reading has just arrived pulses once (a chime
 * sounds with it, web/ui/held.ts); the page's title is marked ● while any is held.
 */
function markHeld(s: Snapshot, panels: readonly HTMLElement[]): void {
  const held =
    s.variant === 'scrabble-me'
      ? s.boards.flatMap((b, i) => (b.pending ? [heldKey(i, b.pending)] : []))
      : s.pending
        ? [heldKey(0, s.pending)]
        : [];
  document.title = held.length > 0 ? `● ${baseTitle}` : baseTitle;
  if (!token) return;
  const fresh = newlyHeld(held);
  for (const panel of panels) {
    const key = held.find((k) => k.startsWith(`${panel.dataset.board ?? 0}:`));
    if (key && fresh.has(key)) panel.classList.add('pulse');
  }
}

/** Puts the error message by the controls, and focus back on the control that had it before the re-render. */
function afterRender(focused: string | undefined): void {
  if (!token) return;
  const box = root.querySelector('.controls');
  if (box) box.after(message);
  else root.querySelector('.side')?.append(message);
  if (focused) root.querySelector<HTMLElement>(`[data-action="${CSS.escape(focused)}"]`)?.focus();
}

/**
 * The side column: the move list, the tiles unseen, the legend and the GCG file; on the scorekeeper's page the
 * controls first (in view beside the board however long the game, the list scrolling in its box), the camera's
 * warning, the filter of the list, the camera streams and pictures and the Share panel.
 */
function sideView(s: GameSnapshot): HTMLElement {
  const side = el('div', { class: 'side' });
  const movesBox = el('div', { class: 'moves-box' });
  movesBox.append(movesHead(), movesView(s, onlyContext));
  const key = movesKeyView(s);
  const rest = [
    movesBox,
    ...(key ? [key] : []),
    ...(s.revealed ? [revealedView(s.revealed)] : []),
    unseenView(s),
    legendView(),
    recordLinks(),
  ];
  if (!token) {
    side.append(...rest);
    return side;
  }
  const filter = el('label', { class: 'filter' });
  const only = el('input', { type: 'checkbox' }) as HTMLInputElement;
  only.checked = onlyContext;
  only.onchange = () => {
    onlyContext = only.checked;
    render(s);
  };
  filter.append(only, ' only moves decided by context');
  side.append(controls(s));
  if (s.disturbed.length > 0)
    side.append(
      el(
        'p',
        { class: 'source stopped' },
        `The camera sees a change at ${s.disturbed.map((q) => squareName(q)).join(', ')}: has the board been knocked? Look, and fix the square if a tile moved.`,
      ),
    );
  side.append(filter, ...rest, ...streams(s), cameraView([]), bestView(s), shareView(s));
  return side;
}

/**
 * The newest move in view, the list scrolled to its end inside its box, and its first row shown whole below the
 * list's sticky header: the row the header would cut in half is scrolled out of sight, room left below the last.
 */
function showNewest(): void {
  const box = root.querySelector<HTMLElement>('.moves-box');
  const list = box?.querySelector<HTMLElement>('.moves');
  const head = box?.querySelector('.moves-head');
  if (!box || !list || !head) return;
  list.style.paddingBottom = '';
  box.scrollTop = box.scrollHeight;
  if (box.scrollTop === 0) return;
  const below = head.getBoundingClientRect().bottom;
  const cut = [...list.children].find((li) => li.getBoundingClientRect().bottom > below + 0.5);
  const shown = cut ? cut.getBoundingClientRect().bottom - below : 0;
  if (!cut || cut.getBoundingClientRect().top >= below - 0.5) return;
  // Scrolled on by what shows of that row, in whole pixels (as the browser scrolls), room made below the last.
  const by = Math.ceil(shown);
  const from = box.scrollTop;
  list.style.paddingBottom = `${by + 1}px`;
  box.scrollTop = from + by;
}
addEventListener('resize', showNewest);

/** The page's own title, before a held reading marks it. */
const baseTitle = document.title;

function render(s: Snapshot) {
  latest = s;
  const active = document.activeElement;
  const focused = active instanceof HTMLElement && root.contains(active) ? active.dataset.action : undefined;
  root.classList.toggle('me', s.variant === 'scrabble-me');
  root.classList.toggle('room', s.variant !== 'scrabble-me');
  root.classList.remove('held');
  document.body.classList.toggle('room', s.variant !== 'scrabble-me');
  document.body.classList.toggle('keeper', Boolean(token));
  if (s.variant === 'scrabble-me') {
    // The scorekeeper sees the held boards first, at the top; the room's screen keeps them below.
    const held = meHeldViews(s);
    root.classList.toggle('held', held.length > 0 && Boolean(token));
    const view = meView(s, token ? (a) => void act(a) : undefined);
    if (token) root.replaceChildren(...held, ...view);
    else root.replaceChildren(...view, ...held);
    if (token) root.append(...streams(s), cameraView(s.players.map((p) => p.name)), shareView(s));
    markHeld(s, held);
    return afterRender(focused);
  }
  // The scorekeeper sees which squares of the moves the game's context decided (dashed), to look at them.
  const resolved = token
    ? s.turns.flatMap((t) => (t.decided?.how === 'context' ? (t.decided.squares ?? []) : []))
    : [];
  const board = boardView(s.board, {
    last: s.lastMove,
    doubt: token ? s.disturbed : [],
    resolved,
    values: tileValues(s.lang),
  });
  // The tiles of a move that has just landed fade and grow in (not when the page first opens, nor on an undo).
  const now = {
    plays: s.turns.filter((t) => t.kind === 'play').length,
    squares: s.lastMove.map((q) => `${q.row},${q.col}`).join(' '),
  };
  if (shown && now.plays > shown.plays && now.squares !== shown.squares)
    for (const sq of board.querySelectorAll('.sq.last')) sq.classList.add('fresh');
  shown = now;
  if (token) {
    const letters = setLetters(s.lang);
    onSquareClick(board, async (row, col, sq) => {
      if (!sq.classList.contains('tile')) return;
      if (sq.classList.contains('blank')) {
        const letter = await askText({
          title: `Name the blank on ${sq.dataset.square}`,
          text: 'The letter the blank stands for: its score stays 0.',
          field: { label: 'One letter', maxlength: 1, name: 'letter', value: sq.textContent ?? '' },
          submit: 'Name the blank',
          check: (raw) => {
            const upper = raw.trim().toUpperCase();
            return /^\p{L}$/u.test(upper) && (!letters || letters.includes(upper))
              ? { value: upper }
              : { error: 'Type one letter of the tile set.' };
          },
        });
        if (letter) void act({ type: 'name-blank', row, col, letter });
      } else {
        const tile = await askTile(`Correct ${sq.dataset.square} to which letter?`, false, letters);
        if (tile) void act({ type: 'correct', row, col, tile });
      }
    });
  }
  const head = el('div', { class: 'room-head' });
  head.append(scoresView(s, { clock: true }), headlineView(s));
  const side = sideView(s);
  const boardArea = el('div', { class: 'board-area' });
  boardArea.append(boardFrame(board));
  // The scorekeeper sees a held reading first, above the board; the room's screen keeps it below.
  const held = s.pending ? pendingView(s) : undefined;
  root.classList.toggle('held', Boolean(held && token));
  // The room's screen: the panel takes the side column's top on a landscape screen (style.css, `waiting`).
  root.classList.toggle('waiting', Boolean(held && !token));
  if (held && token) root.replaceChildren(held, head, boardArea, side);
  else root.replaceChildren(head, boardArea, side, ...(held ? [held] : []));
  markHeld(s, held ? [held] : []);
  showNewest();
  afterRender(focused);
}

/** What the header says of the connection. */
const STATE_WORDS: Record<ConnectionState, string> = {
  connecting: 'connecting…',
  live: 'live',
  stale: 'connection lost: reconnecting…',
  missing: 'no such game',
};

if (!game) root.textContent = 'No game given: open this page from the game list.';
else {
  // The running turn's clock, a second at a time between snapshots.
  setInterval(() => tickClocks(root), 500);
  // The scorekeeper's switch for the chime of a held reading.
  if (token) status.after(soundToggle());
  connect(
    game,
    render,
    (state) => {
      status.textContent = STATE_WORDS[state];
      status.className = state;
      if (state === 'missing') return void root.replaceChildren(noSuchGameView(game));
      if (state === 'live' && latest) status.title = `updated ${new Date().toLocaleTimeString()}`;
    },
    (m) => {
      // A grid without its picture (another instance sent it before it knew of this page): nothing to show.
      if (m.type !== 'thumbnail' || m.data.jpeg === undefined) return;
      const seat = m.data.camera ?? 0;
      const fresh = !cameras.has(seat);
      const img = cameras.get(seat) ?? el('img', { class: 'camera', alt: 'the latest camera picture' });
      img.src = `data:image/jpeg;base64,${m.data.jpeg}`;
      cameras.set(seat, img);
      if (fresh && latest) render(latest);
    },
    token,
  );
}

/** A move shown with its rack after the game's rack delay (the server sends it only then), and its best play. */
function revealedView(m: NonNullable<GameSnapshot['revealed']>): HTMLElement {
  const box = el('div', { class: 'revealed' });
  box.append(
    el('h2', {}, `Move ${m.turn}: ${m.player}'s rack`),
    el('p', { class: 'revealed-rack' }, m.rack),
    el(
      'p',
      {},
      `Played ${playText(m.played)}${m.best ? `; best ${playText(m.best)}` : ''}${m.equityLost ? ` (${m.equityLost.toFixed(1)} equity given up)` : ''}`,
    ),
  );
  return box;
}

/** The game's record: its GCG file, and for the scorekeeper the game against the best plays. */
function recordLinks(): HTMLElement {
  const links = el('p', { class: 'record-links' });
  links.append(gcgLink());
  if (token)
    links.append(
      el('br'),
      el(
        'a',
        { href: `/analysis.html?game=${game}#token=${token}`, class: 'analysis-link' },
        'The game against the best plays',
      ),
    );
  return links;
}

/** The GCG download: the scorekeeper's carries the racks kept with the moves (sent with their token), anyone else's
 *  each play's tiles. */
function gcgLink(): HTMLElement {
  const href = `/api/games/${game}/gcg`;
  const a = el('a', { href, class: 'gcg' }, 'Download the game as GCG');
  if (token)
    a.onclick = async (e) => {
      e.preventDefault();
      const file = await getGcgFile(game, token);
      if (!file) return;
      const url = URL.createObjectURL(file);
      const save = el('a', { href: url, download: `tilecam-${game}.gcg` });
      save.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    };
  return a;
}
