/**
 * The scoreboard page (`/board.html?game=ID`), and with the scorekeeper's token in the address
 * (`#token=…`) the scorekeeper's controls: the pending reading with its photo and squares in doubt, fix a square,
 * confirm, pass, exchange, challenge, name a blank, undo, end the game.
 */
import type { ActionInput, GameSnapshot, MeActionInput, Snapshot } from '../server/protocol/index.ts';
import { connect } from './connection.ts';
import { meView } from './me.ts';
import {
  actionButton,
  askTile,
  boardView,
  el,
  movesView,
  onSquareClick,
  scoresView,
  unseenView,
} from './render.ts';

const params = new URLSearchParams(location.search);
const game = params.get('game') ?? '';
const token = new URLSearchParams(location.hash.slice(1)).get('token');
const root = document.getElementById('app')!;
const status = document.getElementById('status')!;
let latest: Snapshot | undefined;
/** The scorekeeper's filter of the move list: only the moves some of whose squares the context decided. */
let onlyContext = false;
/** The latest picture from each camera (by seat), for the scorekeeper to see what the cameras see. */
const cameras = new Map<number, HTMLImageElement>();

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
  const res = await fetch(`/api/games/${game}/actions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ ...action, ...(latest ? { version: latest.version } : {}) }),
  });
  const body = await res.json();
  // The reply carries the game as it is now: shown at once, so the next click is made against it.
  if (res.ok) return void render(body.snapshot as Snapshot);
  if (body.error?.code === 'stale') status.textContent = 'the game had moved on: nothing was recorded twice';
  else alert(body.error?.message ?? 'the action failed');
}

/** The camera streams the server pulls, and why one stopped: the scorekeeper must see a camera that went away. */
function sourcesView(s: Snapshot): HTMLElement[] {
  return s.sources.map((src) =>
    el(
      'p',
      { class: src.state === 'pulling' ? 'source' : 'source stopped' },
      src.state === 'pulling'
        ? `Camera stream from ${src.host}${s.variant === 'scrabble-me' ? ` (seat ${src.camera + 1})` : ''}: pulling`
        : `Camera stream from ${src.host} stopped: ${src.error ?? 'no reason given'}`,
    ),
  );
}

function controls(s: GameSnapshot) {
  const box = el('div', { class: 'controls' });
  const button = (label: string, action: () => ActionInput | undefined) =>
    actionButton(box, label, action, (a) => void act(a));
  button('End turn', () => ({ type: 'end-turn' }));
  button('Pass', () => ({ type: 'pass' }));
  button('Exchange', () => {
    const n = Number(prompt('How many tiles were exchanged?', '7'));
    return Number.isInteger(n) && n > 0 ? { type: 'exchange', count: n } : undefined;
  });
  button('Challenge', () => {
    const who = prompt(`Who challenged? ${s.players.map((p, i) => `${i + 1}=${p.name}`).join(', ')}`);
    if (!who) return undefined;
    return {
      type: 'challenge',
      player: Number(who) - 1,
      acceptable: confirm('Is the play acceptable (OK) or a phony (Cancel)?'),
    };
  });
  button('Undo', () => ({ type: 'undo' }));
  button('End game', () => {
    const racks = s.players.map((p) => prompt(`Letters left on ${p.name}'s rack (empty if none)`, '') ?? '');
    return { type: 'end', racks: racks.map((r) => r.trim().toUpperCase()) };
  });
  return box;
}

function pendingView(s: GameSnapshot) {
  const p = s.pending!;
  const box = el('section', { class: 'pending' });
  box.append(el('h2', {}, 'Waiting for confirmation'), el('p', { class: 'reasons' }, p.reasons.join('; ')));
  const board = boardView(p.board, [], p.squares);
  if (token) {
    onSquareClick(board, (row, col, sq) => {
      const tile = askTile(`What is on ${sq.dataset.square}? (a letter, ? for a blank, . for empty)`);
      if (tile) void act({ type: 'correct', row, col, tile });
    });
  }
  box.append(board, el('img', { src: p.photo, alt: 'the photo behind this reading', class: 'photo' }));
  if (token) {
    const ok = el('button', { type: 'button', 'data-action': 'confirm' }, 'Confirm this board');
    ok.onclick = () => void act({ type: 'confirm', board: [...p.board] });
    box.append(ok);
  }
  return box;
}

function render(s: Snapshot) {
  latest = s;
  root.classList.toggle('me', s.variant === 'scrabble-me');
  if (s.variant === 'scrabble-me') {
    root.replaceChildren(...meView(s, token ? (a) => void act(a) : undefined));
    if (token) root.append(...sourcesView(s), cameraView(s.players.map((p) => p.name)));
    return;
  }
  // The scorekeeper sees which squares of the moves the game's context decided (dashed), to look at them.
  const resolved = token
    ? s.turns.flatMap((t) => (t.decided?.how === 'context' ? (t.decided.squares ?? []) : []))
    : [];
  const board = boardView(s.board, s.lastMove, token ? s.disturbed : [], resolved);
  if (token) {
    onSquareClick(board, (row, col, sq) => {
      if (!sq.classList.contains('tile')) return;
      if (sq.classList.contains('blank')) {
        const letter = prompt(`Which letter is the blank on ${sq.dataset.square}?`);
        if (letter && /^\p{L}$/u.test(letter)) void act({ type: 'name-blank', row, col, letter });
      } else {
        const tile = askTile(`Correct ${sq.dataset.square} to which letter? (? for a blank)`, false);
        if (tile) void act({ type: 'correct', row, col, tile });
      }
    });
  }
  const side = el('div', { class: 'side' });
  const filter = el('label', { class: 'filter' });
  const only = el('input', { type: 'checkbox' }) as HTMLInputElement;
  only.checked = onlyContext;
  only.onchange = () => {
    onlyContext = only.checked;
    render(s);
  };
  filter.append(only, ' only moves decided by context');
  side.append(
    scoresView(s),
    ...(token ? [filter] : []),
    movesView(s, onlyContext),
    unseenView(s),
    el('a', { href: `/api/games/${game}/gcg`, class: 'gcg' }, 'Download the game as GCG'),
  );
  if (token && s.disturbed.length > 0)
    side.append(
      el(
        'p',
        { class: 'source stopped' },
        `The camera sees a change at ${s.disturbed.map((q) => `${q.row + 1}${'ABCDEFGHIJKLMNO'[q.col]}`).join(', ')}: has the board been knocked? Look, and fix the square if a tile moved.`,
      ),
    );
  if (token) side.append(controls(s), ...sourcesView(s), cameraView([]));
  root.replaceChildren(board, side, ...(s.pending ? [pendingView(s)] : []));
}

if (!game) root.textContent = 'No game given: open this page from the game list.';
else {
  connect(
    game,
    render,
    (state) => {
      status.textContent =
        state === 'live' ? 'live' : state === 'stale' ? 'connection lost: reconnecting…' : 'connecting…';
      status.className = state;
      if (state === 'live' && latest) status.title = `updated ${new Date().toLocaleTimeString()}`;
    },
    (m) => {
      if (m.type !== 'thumbnail') return;
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
