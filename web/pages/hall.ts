/**
 * The hall (`/hall?event=NAME`): every live game of an event at once, for a projector or a wall screen. A card per
 * game: its board small, the players and their scores, whose turn it is, the last move (word and points); a game
 * whose reading waits on the scorekeeper's click stands out. Each card opens that game's scoreboard. The event's
 * live games are listed from `GET /api/games?event=NAME&status=live` (every page), each kept live by its own
 * WebSocket (web/connection.ts), and listed again every 30 s: new games join, ended ones leave. Without an event,
 * a form asks for one (and offers the events with games being played now). Dark by default; `?theme=light`.
 */
import type { GameSnapshot, MeSnapshot, Snapshot } from '../../server/protocol/index.ts';
import { type ConnectionState, connect } from '../connection.ts';
import { hallHref, type ListedGame, listAllGames, playersWithScores } from '../ui/listing.ts';
import { meScoresView, meStatus, roundView } from '../ui/me.ts';
import { boardView, el, headlineView, scoresView, tileValues } from '../ui/render.ts';

/** How often the event's games are listed again (new games join, ended ones leave). */
const RELIST_MS = 30_000;
/** A card's height over its width, as the cards are laid out (the board takes about half the width). */
const CARD_RATIO = 0.62;
/** The narrowest a card gets before the hall scrolls instead. */
const MIN_CARD = 360;

const params = new URLSearchParams(location.search);
const event = (params.get('event') ?? '').trim();
if (params.get('theme') === 'light') document.body.classList.add('light');
const main = document.getElementById('hall')!;
const header = document.querySelector('body > header') as HTMLElement;
const title = document.getElementById('hall-title')!;
const count = document.getElementById('hall-count')!;
const waiting = document.getElementById('hall-waiting')!;
const status = document.getElementById('hall-status')!;

/** A game on the wall: what the list said of it, its latest snapshot, its connection. */
interface Card {
  readonly id: string;
  listed: ListedGame;
  snapshot?: Snapshot;
  state: ConnectionState;
  readonly item: HTMLLIElement;
  link?: { close(): void };
}

const cards = new Map<string, Card>();
const grid = el('ul', { class: 'hall-grid' });
const empty = el('p', { class: 'hall-empty' });
empty.hidden = true;

/** Whether the game waits on a click: its reading held (Scrabble Me: any board's). */
function isHeld(s: Snapshot | undefined): boolean {
  if (!s) return false;
  return s.variant === 'scrabble-me' ? s.boards.some((b) => b.pending !== null) : s.pending !== null;
}

function names(card: Card): string {
  return (card.snapshot?.players.map((p) => p.name) ?? card.listed.players).join(' v ');
}

/** A classic game: the board, the scores with whose turn, the last move. */
function classicBody(s: GameSnapshot, who: string): HTMLElement {
  const body = el('div', { class: 'hall-body' });
  const board = boardView(s.board, { last: s.lastMove, values: tileValues(s.lang) });
  board.setAttribute('aria-label', `the board of ${who}`);
  const info = el('div', { class: 'hall-info' });
  // The scoreboard's headline, without its word-by-word breakdown: word, square, points, and who played it.
  const last = headlineView(s);
  last.removeAttribute('aria-live');
  last.setAttribute('aria-label', `last move of ${who}`);
  last.querySelector('.breakdown')?.remove();
  info.append(scoresView(s), last);
  body.append(el('div', { class: 'hall-board' }), info);
  body.firstElementChild!.append(board);
  return body;
}

/** A Scrabble Me game: every board small (a held one outlined), the totals, what the table is doing, the last round. */
function meBody(s: MeSnapshot, who: string): HTMLElement {
  const body = el('div', { class: 'hall-body me' });
  const boards = el('div', { class: 'hall-board hall-me-boards', 'data-count': String(s.boards.length) });
  s.boards.forEach((b, i) => {
    const fig = el('figure', { class: `hall-me-board${b.pending ? ' held' : ''}` });
    const board = boardView(b.board, { last: b.lastWord });
    board.setAttribute('aria-label', `board ${i + 1} of ${who}`);
    fig.append(board, el('figcaption', {}, s.players[b.holder]?.name ?? '?'));
    boards.append(fig);
  });
  const info = el('div', { class: 'hall-info' });
  info.append(meScoresView(s), el('p', { class: 'hall-me-status' }, meStatus(s)));
  const round = s.rounds.at(-1);
  if (round) {
    const list = el('ol', { class: 'rounds hall-round', 'aria-label': `last round of ${who}` });
    list.append(roundView(s, round));
    info.append(list);
  }
  body.append(boards, info);
  return body;
}

function render(card: Card): void {
  const s = card.snapshot;
  const held = isHeld(s);
  const ended = s?.ended != null;
  const item = card.item;
  item.className = `hall-card${held ? ' held' : ''}${ended ? ' ended' : ''}${card.state === 'stale' ? ' stale' : ''}`;
  item.dataset.held = String(held);
  item.dataset.state = card.state;
  const who = names(card);
  const head = el('h2', { class: 'hall-head' });
  const link = el(
    'a',
    {
      class: 'hall-link',
      href: `/board.html?game=${encodeURIComponent(card.id)}`,
      'aria-label': `${who}: the scoreboard`,
    },
    who,
  );
  head.append(link);
  // The title line, and beside it why the game stands out: a reading held for the scorekeeper's click.
  const top = el('div', { class: 'hall-top' });
  top.append(head);
  if (held) top.append(el('p', { class: 'hall-held' }, 'waiting for the scorekeeper'));
  const parts: HTMLElement[] = [top];
  if (!s) parts.push(el('p', { class: 'hall-loading' }, `${playersWithScores(card.listed)} · connecting…`));
  else parts.push(s.variant === 'scrabble-me' ? meBody(s, who) : classicBody(s, who));
  if (card.state === 'stale') parts.push(el('p', { class: 'hall-conn' }, 'reconnecting…'));
  item.replaceChildren(...parts);
  showCounts();
}

/** The header's counts: the live games, and how many wait on the scorekeeper. */
function showCounts(): void {
  const n = cards.size;
  count.textContent = `${n} live game${n === 1 ? '' : 's'}`;
  const held = [...cards.values()].filter((c) => isHeld(c.snapshot)).length;
  waiting.hidden = held === 0;
  waiting.textContent = `${held} waiting for the scorekeeper`;
}

/**
 * Columns for the cards: the fewest that fit every card in the screen's height, as many as keep a card at least
 * MIN_CARD wide; the grid no wider than lets its rows fit the height (one or two games do not fill a wall).
 */
function layout(): void {
  const n = Math.max(1, cards.size);
  const style = getComputedStyle(grid);
  const gap = Number.parseFloat(style.columnGap) || 0;
  const width = main.clientWidth - Number.parseFloat(getComputedStyle(main).paddingLeft) * 2;
  const height = innerHeight - header.offsetHeight - Number.parseFloat(getComputedStyle(main).paddingTop) * 2;
  const maxCols = Math.max(1, Math.min(n, Math.floor((width + gap) / (MIN_CARD + gap))));
  let cols = 1;
  while (cols < maxCols) {
    const rows = Math.ceil(n / cols);
    const cardWidth = (width - gap * (cols - 1)) / cols;
    if (rows * cardWidth * CARD_RATIO + gap * (rows - 1) <= height) break;
    cols++;
  }
  const rows = Math.ceil(n / cols);
  // The widest card whose rows still fit the height, but never narrower than MIN_CARD.
  const fit = Math.max(MIN_CARD, (height - gap * (rows - 1)) / rows / CARD_RATIO);
  grid.style.setProperty('--cols', String(cols));
  grid.style.maxWidth = `${Math.round(fit * cols + gap * (cols - 1))}px`;
}
addEventListener('resize', layout);

function addCard(g: ListedGame): Card {
  const card: Card = {
    id: g.id,
    listed: g,
    state: 'connecting',
    item: el('li', { class: 'hall-card', 'data-game': g.id }) as HTMLLIElement,
  };
  cards.set(g.id, card);
  render(card);
  card.link = connect(
    g.id,
    (s) => {
      card.snapshot = s;
      render(card);
    },
    (state) => {
      if (state === card.state) return;
      card.state = state;
      render(card);
    },
  );
  return card;
}

function dropCard(card: Card): void {
  card.link?.close();
  card.item.remove();
  cards.delete(card.id);
}

/** Lists the event's live games again: new ones get a card, those no longer live leave. */
async function relist(): Promise<void> {
  try {
    const games = (await listAllGames({ event, status: 'live' }))
      // A game nobody has touched for a week is not on the floor.
      .filter((g) => !g.abandoned)
      // The order the games were started in (as the tables were set up), stable from one listing to the next.
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    const live = new Set(games.map((g) => g.id));
    for (const card of [...cards.values()]) if (!live.has(card.id)) dropCard(card);
    for (const g of games) {
      const card = cards.get(g.id);
      if (card) card.listed = g;
      else addCard(g);
    }
    grid.replaceChildren(...games.map((g) => cards.get(g.id)!.item));
    empty.hidden = games.length > 0;
    empty.textContent = `No game of ${event} is being played now. Games started with the event "${event}" appear here (the hall looks again every 30 seconds).`;
    status.textContent = '';
    status.classList.remove('error');
    showCounts();
    layout();
  } catch (err) {
    status.textContent = `The games could not be listed again (${(err as Error).message}): those shown stay live; trying again in 30 s.`;
    status.classList.add('error');
  } finally {
    setTimeout(() => void relist(), RELIST_MS);
  }
}

/** No event in the address: a form for one, and the events with games being played now. */
async function pickEvent(): Promise<void> {
  title.textContent = 'The hall';
  const box = el('section', { class: 'hall-pick' });
  const form = el('form', { action: '/hall', method: 'get' });
  const label = el('label', {}, 'Event ');
  const input = el('input', {
    name: 'event',
    required: '',
    maxlength: '60',
    autocomplete: 'off',
    placeholder: 'Club night',
  });
  label.append(input);
  form.append(label, el('button', { type: 'submit' }, 'Show its games'));
  box.append(
    el('h2', {}, 'Which event?'),
    el(
      'p',
      { class: 'hint' },
      'The hall shows every game of an event (a tournament, a club night) being played, live, on one screen. A game belongs to the event typed in "Event" when it is started.',
    ),
    form,
  );
  main.replaceChildren(box);
  input.focus();
  try {
    const events = [
      ...new Set(
        (await listAllGames({ status: 'live' }, 3)).flatMap((g) =>
          g.event && !g.abandoned ? [g.event] : [],
        ),
      ),
    ].sort((a, b) => a.localeCompare(b));
    if (events.length === 0) return;
    const list = el('ul', { class: 'hall-events' });
    for (const name of events) {
      const li = el('li', {});
      li.append(el('a', { href: hallHref(name) }, name));
      list.append(li);
    }
    box.append(el('h3', {}, 'Events with games being played now'), list);
  } catch {
    // Without the list, the form is all there is.
  }
}

if (!event) void pickEvent();
else {
  title.textContent = event;
  document.title = `${event} · the hall · tilecam`;
  grid.setAttribute('aria-label', `the live games of ${event}`);
  main.append(empty, grid);
  void relist();
}
