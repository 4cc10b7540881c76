/** DOM rendering of a snapshot: the board with premium squares, scores, move list, unseen tiles, pending reading. */

import { standardLayout, type TileSet, tileSets } from '../server/engine/index.ts';
import type { GameSnapshot, WordView } from '../server/protocol/index.ts';
import { askText } from './dialog.ts';

const PREMIUM = standardLayout.rows;
const COLS = 'ABCDEFGHIJKLMNO';

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

/** A 15×15 board; `highlight` squares get the `last` class, `doubt` squares the `doubt` class. */
export function boardView(
  rows: readonly string[],
  highlight: readonly { row: number; col: number }[] = [],
  doubt: readonly { row: number; col: number }[] = [],
  /** Squares the camera was unsure of and the game's context decided: a person may want to look. */
  resolved: readonly { row: number; col: number }[] = [],
) {
  const table = el('div', { class: 'board', role: 'grid' });
  const has = (list: readonly { row: number; col: number }[], r: number, c: number) =>
    list.some((s) => s.row === r && s.col === c);
  for (let r = 0; r < 15; r++) {
    for (let c = 0; c < 15; c++) {
      const ch = rows[r]?.[c] ?? '.';
      const cell = el('div', { class: `sq p${PREMIUM[r]![c]}`, 'data-square': `${r + 1}${COLS[c]}` });
      if (r === 7 && c === 7) cell.classList.add('star');
      if (ch !== '.') {
        cell.classList.add('tile');
        if (ch === '?' || ch !== ch.toUpperCase()) cell.classList.add('blank');
        cell.textContent = ch === '?' ? '' : ch.toUpperCase();
      }
      if (has(highlight, r, c)) cell.classList.add('last');
      if (has(doubt, r, c)) cell.classList.add('doubt');
      if (has(resolved, r, c)) cell.classList.add('resolved');
      table.append(cell);
    }
  }
  return table;
}

export function scoresView(s: GameSnapshot) {
  const box = el('div', { class: 'scores' });
  s.players.forEach((p, i) => {
    const row = el('div', {
      class: `player${i === s.toMove && !s.ended ? ' to-move' : ''}`,
      'data-player': String(i),
    });
    row.append(el('span', { class: 'name' }, p.name), el('span', { class: 'score' }, String(p.score)));
    box.append(row);
  });
  if (s.ended) {
    box.append(
      el(
        'div',
        { class: 'ended' },
        `Game over (${s.ended.reason}): ${s.ended.winners.map((w) => s.players[w]!.name).join(' and ')} won`,
      ),
    );
  }
  return box;
}

/** Premiums a word used: letter premiums under new tiles (`X 3L`) and its word multiplier (`×2`). */
function premiums(w: WordView): string {
  const parts = w.premiums.map((p) => `${p.tile.toUpperCase()} ${p.letterMultiplier}L`);
  if (w.wordMultiplier > 1) parts.push(`×${w.wordMultiplier}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

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
            `${q.row + 1}${COLS[q.col]} ${q.tile} (read ${q.options.map((o) => `${o.tile} ${Math.round(o.p * 100)}%`).join(', ')})`,
        )
        .join('; ')}`;
    const who = s.players[t.player]?.name ?? '?';
    let what: string = t.kind;
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
      el('span', { class: 'who' }, who),
      explained,
      el('span', { class: 'points' }, `${t.points >= 0 ? '+' : ''}${t.points}`),
      el('span', { class: 'total' }, String(t.cumulative)),
    );
    list.append(li);
  }
  return list;
}

export function unseenView(s: GameSnapshot) {
  const box = el('div', { class: 'unseen' });
  const tiles = Object.entries(s.unseen.tiles)
    .map(([l, n]) => l.repeat(n))
    .join(' ');
  box.append(
    el(
      'div',
      { class: 'counts' },
      `${s.unseen.total} unseen · ${s.unseen.vowels} vowels · ${s.unseen.consonants} consonants · ${s.unseen.blanks} blanks · bag ${s.unseen.bag}`,
    ),
    el('div', { class: 'letters' }, tiles),
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
