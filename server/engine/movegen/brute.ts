/**
 * The reference the move generator is proven against: every word of the lexicon tried at every square of every row
 * and column, with every way of playing the rack's blanks, each kept only if the engine itself (words.ts
 * `checkPlacement` and `wordsFormed`, score.ts `scorePlay`) finds it legal, all its words in the lexicon, and scores
 * it. It shares no code with generate.ts. Slow (tens of milliseconds a position): for tests and the benchmark only.
 */
import { type Board, EMPTY, type Placement, place, tileAt } from '../board.ts';
import type { Direction } from '../coords.ts';
import type { GameRules } from '../rules.ts';
import { scorePlay } from '../score.ts';
import { BLANK } from '../tilesets.ts';
import { checkPlacement, wordsFormed } from '../words.ts';

export interface ReferencePlay {
  readonly placements: readonly Placement[];
  readonly score: number;
}

/** A word list ready for the reference: each word with the set of its letters as bits over `alphabet`. */
export interface ReferenceWords {
  readonly alphabet: string;
  readonly words: readonly string[];
  readonly masks: Uint32Array;
  readonly set: ReadonlySet<string>;
}

export function referenceWords(alphabet: string, words: Iterable<string>): ReferenceWords {
  const index = new Map([...alphabet].map((ch, i) => [ch, i]));
  const list: string[] = [];
  const masks: number[] = [];
  for (const w of words) {
    if (w.length < 2) continue;
    let m = 0;
    let ok = true;
    for (const ch of w) {
      const l = index.get(ch);
      if (l === undefined) {
        ok = false;
        break;
      }
      m |= 1 << l;
    }
    if (!ok) continue;
    list.push(w);
    masks.push(m >>> 0);
  }
  return { alphabet, words: list, masks: Uint32Array.from(masks), set: new Set(list) };
}

/** The key a play is compared by: its tiles, in board order. */
export function playKey(placements: readonly Placement[]): string {
  return [...placements]
    .sort((a, b) => a.row - b.row || a.col - b.col)
    .map((p) => `${p.row},${p.col},${p.tile}`)
    .join(' ');
}

export function referencePlays(
  board: Board,
  rack: string,
  lexicon: ReferenceWords,
  rules: GameRules,
): Map<string, ReferencePlay> {
  const n = board.size;
  const found = new Map<string, ReferencePlay>();
  const blanks = [...rack].filter((c) => c === BLANK).length;
  const rackCounts = new Map<string, number>();
  for (const ch of rack) if (ch !== BLANK) rackCounts.set(ch, (rackCounts.get(ch) ?? 0) + 1);
  const index = new Map([...lexicon.alphabet].map((ch, i) => [ch, i]));
  for (const direction of ['across', 'down'] as Direction[]) {
    for (let line = 0; line < n; line++) {
      const at = (k: number) => (direction === 'across' ? { row: line, col: k } : { row: k, col: line });
      const cells = Array.from({ length: n }, (_, k) => tileAt(board, at(k).row, at(k).col)!);
      const filled = (r: number, c: number) => (tileAt(board, r, c) ?? EMPTY) !== EMPTY;
      const boardEmpty = board.cells.every((c) => c === EMPTY);
      const near = Array.from({ length: n }, (_, k) => {
        const { row, col } = at(k);
        if (boardEmpty) return row === rules.layout.start[0] && col === rules.layout.start[1];
        return filled(row - 1, col) || filled(row + 1, col) || filled(row, col - 1) || filled(row, col + 1);
      });
      // The letters this line can spell with: the rack's and the line's own tiles.
      let avail = 0;
      for (const ch of [
        ...rackCounts.keys(),
        ...cells.filter((c) => c !== EMPTY).map((c) => c.toUpperCase()),
      ]) {
        const l = index.get(ch);
        if (l !== undefined) avail |= 1 << l;
      }
      for (let w = 0; w < lexicon.words.length; w++) {
        const missing = (lexicon.masks[w]! & ~avail) >>> 0;
        if (missing !== 0 && (blanks === 0 || popcount(missing) > blanks)) continue;
        const word = lexicon.words[w]!;
        for (let s = 0; s + word.length <= n; s++) {
          if (s > 0 && cells[s - 1] !== EMPTY) continue;
          if (s + word.length < n && cells[s + word.length] !== EMPTY) continue;
          // Worth the full check only if it fits the line's tiles, puts a tile down, and touches the board's tiles
          // (or, on an empty board, covers the start square).
          let fits = true;
          let empties = 0;
          let touches = false;
          for (let k = 0; k < word.length && fits; k++) {
            const cell = cells[s + k]!;
            if (cell === EMPTY) {
              empties++;
              if (near[s + k]) touches = true;
            } else if (cell.toUpperCase() !== word[k]) fits = false;
            else touches = true;
          }
          if (fits && empties > 0 && touches) tryAt(word, s);
        }
      }
      function tryAt(word: string, s: number) {
        // Each empty square takes the rack's letter, or a blank: every way the rack allows.
        const choices: { k: number; letter: string }[] = [];
        for (let k = 0; k < word.length; k++) {
          const cell = cells[s + k]!;
          if (cell === EMPTY) choices.push({ k, letter: word[k]! });
          else if (cell === BLANK || cell.toUpperCase() !== word[k]) return;
        }
        if (choices.length === 0) return;
        const need = new Map<string, number>();
        for (const c of choices) need.set(c.letter, (need.get(c.letter) ?? 0) + 1);
        let short = 0;
        for (const [ch, k] of need) short += Math.max(0, k - (rackCounts.get(ch) ?? 0));
        if (short > blanks) return;
        // Every tile put down must make a word across the line (or none): looked up on the board directly, before
        // the engine's full check.
        for (const { k, letter } of choices) {
          const sq = at(s + k);
          const [dr, dc] = direction === 'across' ? [1, 0] : [0, 1];
          let before = '';
          for (
            let r = sq.row - dr, c = sq.col - dc;
            (tileAt(board, r, c) ?? EMPTY) !== EMPTY;
            r -= dr, c -= dc
          )
            before = tileAt(board, r, c)!.toUpperCase() + before;
          let after = '';
          for (
            let r = sq.row + dr, c = sq.col + dc;
            (tileAt(board, r, c) ?? EMPTY) !== EMPTY;
            r += dr, c += dc
          )
            after += tileAt(board, r, c)!.toUpperCase();
          if ((before || after) && !lexicon.set.has(before + letter + after)) return;
        }
        const assign = (i: number, used: Map<string, number>, blanksLeft: number, tiles: Placement[]) => {
          if (i === choices.length) {
            consider(tiles);
            return;
          }
          const { k, letter } = choices[i]!;
          const sq = at(s + k);
          if ((used.get(letter) ?? 0) < (rackCounts.get(letter) ?? 0)) {
            used.set(letter, (used.get(letter) ?? 0) + 1);
            assign(i + 1, used, blanksLeft, [...tiles, { ...sq, tile: letter }]);
            used.set(letter, used.get(letter)! - 1);
          }
          if (blanksLeft > 0)
            assign(i + 1, used, blanksLeft - 1, [...tiles, { ...sq, tile: letter.toLowerCase() }]);
        };
        assign(0, new Map(), blanks, []);
      }
    }
  }
  function consider(placements: Placement[]) {
    const key = playKey(placements);
    if (found.has(key)) return;
    const legal = checkPlacement(board, placements, rules.layout);
    if (!legal.ok) return;
    const after = place(board, placements);
    const words = wordsFormed(after, placements, legal.direction);
    if (words.length === 0) return;
    for (const span of words) {
      const text = span.squares.map((q) => tileAt(after, q.row, q.col)!.toUpperCase()).join('');
      if (!lexicon.set.has(text)) return;
    }
    found.set(key, { placements, score: scorePlay(after, placements, legal.direction, rules).score });
  }
  return found;
}

function popcount(x: number): number {
  let c = 0;
  for (let v = x; v !== 0; v &= v - 1) c++;
  return c;
}
