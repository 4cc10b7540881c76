/**
 * OBS overlay (`/overlay.html?game=ID&fields=scores,last,board,tracker,clock&layout=row&bg=panel&size=l`): compact
 * panels in the order the URL lists them, transparent by default, drawn with the scoreboard's own views (render.ts,
 * me.ts). Everything is sized in a unit of the source's height, and the whole is shrunk until it fits the source,
 * whatever it holds (a classic game, or Scrabble Me's four boards). The settings are read by overlay-options.ts.
 */
import type { GameSnapshot, MeSnapshot, Snapshot } from '../../server/protocol/index.ts';
import { connect } from '../connection.ts';
import { meScoresView, podiumView, roundView } from '../ui/me.ts';
import { type OverlayField, overlaySizes, parseOverlay } from '../ui/overlay-options.ts';
import {
  boardFrame,
  boardView,
  clockTimeView,
  el,
  headlineView,
  noSuchGameView,
  playText,
  scoresView,
  tickClocks,
  tileValues,
  unseenView,
} from '../ui/render.ts';

const options = parseOverlay(new URLSearchParams(location.search));
const root = document.getElementById('overlay')!;

/** The settings the stylesheet reads; a colour the browser does not know is left out. */
function applyOptions(): void {
  const colour = (v: string) => v !== '' && CSS.supports('color', v);
  root.classList.add(options.layout);
  root.style.setProperty('--scale', String(overlaySizes[options.size]));
  if (options.bg === 'panel') root.classList.add('bg-panel');
  else if (colour(options.bg)) {
    root.classList.add('bg-colour');
    root.style.setProperty('--ov-bg', options.bg);
  }
  if (colour(options.colour)) root.style.setProperty('--ov-text', options.colour);
  if (options.font) root.style.setProperty('--ov-font', options.font);
}
applyOptions();

/** A panel of the overlay, named by its field (`data-field`). */
function panel(field: OverlayField, ...children: HTMLElement[]): HTMLElement {
  const box = el('section', { class: `ov-panel ov-${field}`, 'data-field': field });
  box.append(...children);
  return box;
}

/** Names without the totals, when the URL asks for names and not for scores. */
const namesOnly = options.fields.includes('names') && !options.fields.includes('scores');

/** The players' panel: the scoreboard's, less the totals when only the names are asked for. */
function playersPanel(field: OverlayField, view: HTMLElement): HTMLElement {
  if (namesOnly) for (const score of view.querySelectorAll('.score')) score.remove();
  return panel(field, view);
}

/** The panels the URL asks for, in its order; `scores` and `names` make one panel. */
function panels(s: Snapshot): HTMLElement[] {
  const out: HTMLElement[] = [];
  const seen = new Set<string>();
  for (const field of options.fields) {
    // Scrabble Me has no tile tracker: `unseen` and `tracker` are both its podium and bag.
    const kind =
      field === 'names' ? 'scores' : field === 'unseen' && s.variant === 'scrabble-me' ? 'tracker' : field;
    if (seen.has(kind)) continue;
    seen.add(kind);
    const made = s.variant === 'scrabble-me' ? mePanel(s, field) : classicPanel(s, field);
    if (made) out.push(made);
  }
  return out;
}

function classicPanel(s: GameSnapshot, field: OverlayField): HTMLElement | undefined {
  switch (field) {
    case 'scores':
    case 'names':
      return playersPanel(field, scoresView(s));
    case 'last':
      return panel(field, headlineView(s));
    case 'board':
      return panel(field, boardFrame(boardView(s.board, { last: s.lastMove, values: tileValues(s.lang) })));
    case 'tracker':
      return panel(field, unseenView(s));
    case 'unseen':
      return panel(
        field,
        el('p', { class: 'unseen-line' }, `${s.unseen.total} unseen · bag ${s.unseen.bag}`),
      );
    case 'clock':
      return clockPanel(s);
    case 'best':
      // Only with the game's rack delay, and only a move at least that old (the server decides: GameSnapshot.revealed).
      return s.revealed ? panel(field, el('p', { class: 'best-line' }, revealedLine(s.revealed))) : undefined;
  }
}

/** A move shown after the rack delay, in a line: `move 12, Ann (AEINRST?): 8D RETAINS 64 · best …`. */
function revealedLine(m: NonNullable<GameSnapshot['revealed']>): string {
  return `Move ${m.turn}, ${m.player} (${m.rack}): ${playText(m.played)}${m.best ? ` · best ${playText(m.best)}` : ''}`;
}

/** Scrabble Me: the totals, the latest round's words, every board small, the podium and the bag. */
function mePanel(s: MeSnapshot, field: OverlayField): HTMLElement | undefined {
  switch (field) {
    case 'scores':
    case 'names':
      return playersPanel(field, meScoresView(s));
    case 'last': {
      const round = s.rounds.at(-1);
      if (!round) return panel(field, el('p', { class: 'head-line' }, `Round ${s.round}: building`));
      const list = el('ol', { class: 'rounds' });
      list.append(roundView(s, round));
      return panel(field, list);
    }
    case 'board': {
      const boards = el('div', { class: 'me-boards', 'data-count': String(s.boards.length) });
      const values = tileValues(s.lang);
      s.boards.forEach((b, i) => {
        const fig = el('figure', { class: 'me-board', 'data-board': String(i) });
        fig.append(
          boardFrame(boardView(b.board, { last: b.lastWord, values })),
          el('figcaption', {}, s.players[b.holder]?.name ?? `Board ${i + 1}`),
        );
        boards.append(fig);
      });
      return panel(field, boards);
    }
    case 'tracker':
    case 'unseen':
      return panel(field, podiumView(s));
    case 'clock':
      return clockPanel(s);
    case 'best':
      return undefined;
  }
}

/**
 * The turn clock: each player's time used (left, with a game clock), the player to move's turn counted by this
 * browser's own clock while it runs (render.ts's `clockTimeView`, moved on by `tickClocks`). Scrabble Me has none.
 */
function clockPanel(s: Snapshot): HTMLElement | undefined {
  if (s.variant === 'scrabble-me' || !s.clock) return undefined;
  const list = el('div', { class: 'clock' });
  s.players.forEach((p, i) => {
    const time = clockTimeView(s, i);
    if (!time) return;
    const row = el('div', { class: `clock-player${time.dataset.since ? ' running' : ''}` });
    row.append(el('span', { class: 'who' }, p.name), time);
    list.append(row);
  });
  return list.childElementCount > 0 ? panel('clock', list) : undefined;
}

/**
 * Shrinks the overlay (its unit, `--fit`) until it fits the source: the largest of a few steps between 30% and
 * 100% that overflows neither way.
 */
function fitToSource(): void {
  const fits = () => {
    const doc = document.scrollingElement ?? document.documentElement;
    const box = root.getBoundingClientRect();
    return (
      doc.scrollWidth <= doc.clientWidth &&
      doc.scrollHeight <= doc.clientHeight &&
      box.right <= innerWidth + 0.5 &&
      box.bottom <= innerHeight + 0.5
    );
  };
  root.style.setProperty('--fit', '1');
  if (fits()) return;
  let [lo, hi] = [0.3, 1];
  for (let i = 0; i < 8; i++) {
    const mid = (lo + hi) / 2;
    root.style.setProperty('--fit', String(mid));
    if (fits()) lo = mid;
    else hi = mid;
  }
  root.style.setProperty('--fit', String(lo));
}

let latest: Snapshot | undefined;
function render(s: Snapshot): void {
  latest = s;
  root.classList.toggle('me', s.variant === 'scrabble-me');
  root.replaceChildren(...panels(s));
  fitToSource();
  root.dataset.ready = 'true';
}

setInterval(() => tickClocks(root), 500);
addEventListener('resize', () => {
  if (latest) fitToSource();
});
/** A wrong address in the streaming software: said on the source, where whoever set it up looks. */
function showMissing(game: string): void {
  const box = el('section', { class: 'ov-panel ov-missing' });
  box.append(noSuchGameView(game));
  root.replaceChildren(box);
  root.dataset.ready = 'true';
}

const asked = new URLSearchParams(location.search).get('game');
if (options.game)
  connect(options.game, render, (state) => {
    if (state === 'missing') showMissing(options.game);
  });
// An id no game can have (not 8 hex digits): no need to ask the server.
else if (asked) showMissing(asked);
