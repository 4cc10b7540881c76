/**
 * Every legal play of a rack on a board under a lexicon (a DAWG), each with its score: Appel and Jacobson's
 * algorithm ("The World's Fastest Scrabble Program", 1988). Across plays are found row by row from anchors (the
 * empty squares next to a tile, or the start square on an empty board): a left part from the rack on the empty
 * squares before the anchor that are no anchors themselves (or the tiles already there), then extended rightwards
 * through the board's tiles and the rack's, each square's letter limited by the word it forms down (a cross-check
 * worked out once per square). Down plays are the across plays of the board turned over its diagonal.
 *
 * Three things keep a rack with blanks fast (a two-blank rack on the 200 boards `npm run bench:movegen` tries has 21,000 plays on average, 78,000 at most):
 * - the left parts the rack can spell are worked out once per rack (`leftParts`), and each anchor scans those short
 *   enough for it, extending only those whose word can go on through the anchor's square;
 * - the search takes a rack tile for a letter while there is one and a blank only when there is none, so each word on
 *   each squares is searched once; every way of putting it down with the blanks (a blank for an A the rack also holds
 *   is a play of its own) is listed when it is recorded, its score lowered by what each blank does not count;
 * - the plays are packed in typed arrays (`PlayList`), not objects.
 *
 * Scores are summed as the tiles go down, by the rules of score.ts (letter premiums and word multipliers only
 * under new tiles, blanks worth 0, every cross word, the bingo); test/movegen.test.ts checks them, and the plays,
 * against a brute-force reference scored by score.ts itself (brute.ts) on over a thousand corpus positions and on
 * racks with two blanks. A play of one tile is listed once, in the direction score.ts reads it (across when it forms
 * a word across).
 */
import { type Board, EMPTY, type Placement } from '../board.ts';
import type { Direction } from '../coords.ts';
import { premiumAt } from '../layout.ts';
import type { GameRules } from '../rules.ts';
import { BLANK, tileValue } from '../tilesets.ts';
import type { Dawg } from './dawg.ts';

export interface GeneratedPlay {
  /** The main word's first square and direction. */
  readonly row: number;
  readonly col: number;
  readonly direction: Direction;
  /** The main word as on the board after it: uppercase letters, lowercase for blanks. */
  readonly word: string;
  /** The tiles put down (lowercase: a blank played as that letter). */
  readonly placements: readonly Placement[];
  readonly score: number;
  /** The rack's tiles not played, in the rack's order (`?` for a blank). */
  readonly leave: string;
}

const NONE = -1;
/** A blank on the board whose letter is not known (`?`): no word can be read through it. */
const UNKNOWN = -2;

/** Every play of `rack` on `board`, each as an object (`listPlays` keeps them packed, for speed). */
export function generatePlays(board: Board, rack: string, dawg: Dawg, rules: GameRules): GeneratedPlay[] {
  const list = listPlays(board, rack, dawg, rules);
  return Array.from({ length: list.size }, (_, i) => list.play(i));
}

/**
 * Every play of `rack` (uppercase letters, `?` for a blank) on `board`, packed in a PlayList. Letters of the rack
 * outside the lexicon's alphabet are never played. A board holding `?` (a blank of unknown letter) allows no word
 * through that square.
 */
export function listPlays(board: Board, rack: string, dawg: Dawg, rules: GameRules): PlayList {
  const n = board.size;
  const alphabetSize = dawg.alphabet.length;
  const values = new Int32Array(alphabetSize);
  for (let l = 0; l < alphabetSize; l++) values[l] = tileValue(rules.tileSet, dawg.alphabet[l]!) ?? 0;
  const cells = new Int32Array(n * n);
  const blank = new Uint8Array(n * n);
  const letterMult = new Int32Array(n * n);
  const wordMult = new Int32Array(n * n);
  let empty = true;
  for (let sq = 0; sq < n * n; sq++) {
    const t = board.cells[sq]!;
    if (t === EMPTY) cells[sq] = NONE;
    else {
      empty = false;
      if (t === BLANK) {
        cells[sq] = UNKNOWN;
        blank[sq] = 1;
      } else {
        const upper = t.toUpperCase();
        const l = dawg.letterIndex(upper);
        cells[sq] = l < 0 ? UNKNOWN : l;
        blank[sq] = upper !== t ? 1 : 0;
      }
    }
    const p = premiumAt(rules.layout, Math.floor(sq / n), sq % n);
    letterMult[sq] = p.letter;
    wordMult[sq] = p.word;
  }
  const counts = new Int32Array(alphabetSize);
  let blanks = 0;
  for (const ch of rack) {
    if (ch === BLANK) blanks++;
    else {
      const l = dawg.letterIndex(ch);
      if (l >= 0) counts[l]!++;
    }
  }
  const list = new PlayList(board, rack, dawg);
  const start = rules.layout.start;
  const grid: Grid = { n, cells, blank, letterMult, wordMult };
  const tiles = blanks + counts.reduce((a, b) => a + b, 0);
  const parts = leftParts(dawg, counts, blanks, Math.min(tiles - 1, n - 1));
  let have = 0;
  for (let l = 0; l < alphabetSize; l++) if (counts[l]! > 0) have |= 1 << l;
  const context = { dawg, values, counts, have, blanks, parts, rules, list };
  generateAcross(grid, context, 'across', empty ? start[0] * n + start[1] : NONE);
  const turned = transpose(grid);
  generateAcross(turned, context, 'down', empty ? start[1] * n + start[0] : NONE);
  return list;
}

interface Grid {
  readonly n: number;
  /** Letter index per square, NONE when empty, UNKNOWN for a blank of unknown letter. */
  readonly cells: Int32Array;
  readonly blank: Uint8Array;
  readonly letterMult: Int32Array;
  readonly wordMult: Int32Array;
}

interface Context {
  readonly dawg: Dawg;
  readonly values: Int32Array;
  readonly counts: Int32Array;
  /** The letters the rack has a tile of (bit L for letter L). */
  have: number;
  blanks: number;
  readonly parts: LeftParts;
  readonly rules: GameRules;
  readonly list: PlayList;
}

function transpose(g: Grid): Grid {
  const { n } = g;
  const t = (a: Int32Array | Uint8Array) => {
    const out = new (a.constructor as typeof Int32Array)(n * n);
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) out[c * n + r] = a[r * n + c]!;
    return out;
  };
  return {
    n,
    cells: t(g.cells),
    blank: t(g.blank) as unknown as Uint8Array,
    letterMult: t(g.letterMult),
    wordMult: t(g.wordMult),
  };
}

/** The plays along rows of `g` (which is the board, or the board turned for `down`). */
function generateAcross(g: Grid, ctx: Context, direction: Direction, onlyAnchor: number): void {
  const { n, cells, blank, letterMult, wordMult } = g;
  const { dawg, values, counts, rules } = ctx;
  const all = dawg.alphabet.length >= 32 ? 0xffffffff : (1 << dawg.alphabet.length) - 1;
  // Cross-checks: the letters an empty square may take for the word it forms down, and that word's other tiles' sum
  // (-1 when it forms none).
  const crossMask = new Uint32Array(n * n);
  const crossSum = new Int32Array(n * n);
  const anchor = new Uint8Array(n * n);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const sq = r * n + c;
      if (cells[sq] !== NONE) continue;
      const up = r > 0 && cells[sq - n] !== NONE;
      const down = r < n - 1 && cells[sq + n] !== NONE;
      const left = c > 0 && cells[sq - 1] !== NONE;
      const right = c < n - 1 && cells[sq + 1] !== NONE;
      anchor[sq] = onlyAnchor === NONE ? (up || down || left || right ? 1 : 0) : sq === onlyAnchor ? 1 : 0;
      if (!up && !down) {
        crossMask[sq] = all;
        crossSum[sq] = -1;
        continue;
      }
      let top = r;
      while (top > 0 && cells[(top - 1) * n + c] !== NONE) top--;
      let sum = 0;
      let node = dawg.root;
      for (let k = top; k < r && node >= 0; k++) {
        const l = cells[k * n + c]!;
        if (!blank[k * n + c]) sum += values[l]!;
        node = l < 0 ? -1 : dawg.child(node, l);
      }
      let bottom = r;
      while (bottom < n - 1 && cells[(bottom + 1) * n + c] !== NONE) bottom++;
      for (let k = r + 1; k <= bottom; k++)
        if (!blank[k * n + c] && cells[k * n + c]! >= 0) sum += values[cells[k * n + c]!]!;
      let m = 0;
      if (node >= 0) {
        let options = dawg.letters(node);
        while (options !== 0) {
          const l = 31 - Math.clz32(options & -options);
          options &= options - 1;
          let next = dawg.child(node, l);
          for (let k = r + 1; k <= bottom && next >= 0; k++) {
            const below = cells[k * n + c]!;
            next = below < 0 ? -1 : dawg.child(next, below);
          }
          if (next >= 0 && dawg.isFinal(next)) m |= 1 << l;
        }
      }
      crossMask[sq] = m >>> 0;
      crossSum[sq] = sum;
    }
  }

  // The tiles being tried, left part first: square and letter. Which of them are blanks is settled when a play is
  // recorded: the search takes a rack tile of the letter while the rack has one and a blank only when it has none, so
  // that each word on each squares is tried once, and `record` then lists every way the rack's tiles and blanks
  // can put it down (a blank for an A the rack also holds is a play of its own, with its own score and leave).
  const placedSq = new Int32Array(n);
  const placedTile = new Int32Array(n);
  let placedCount = 0;
  const bingo = rules.bingo;
  const list = ctx.list;
  const turned = direction === 'down';
  const turn = turned ? n : 0;
  const dealt = Int32Array.from(counts);
  const blanksDealt = ctx.blanks;
  // Per tile of the play being recorded: the points it brings as a lettered tile (lost as a blank), the code listed
  // (-1 - letter for a blank), and per letter the rack tiles used so far.
  const weight = new Int32Array(n);
  const codes = new Int32Array(n);
  const used = new Int32Array(counts.length);
  let playStart = 0;
  let playLength = 0;
  const variants = (k: number, blanksUsed: number, score: number): void => {
    if (k === placedCount) {
      list.add(playStart, turned, playLength, score, placedCount, placedSq, codes, turn);
      return;
    }
    const l = placedTile[k]!;
    if (used[l]! < dealt[l]!) {
      used[l]!++;
      codes[k] = l;
      variants(k + 1, blanksUsed, score);
      used[l]!--;
    }
    if (blanksUsed < blanksDealt) {
      codes[k] = -1 - l;
      variants(k + 1, blanksUsed + 1, score - weight[k]!);
    }
  };
  /** Records the word from `from` to `to` in `row`, scored `score` with every tile lettered, under `mult`. */
  const record = (row: number, from: number, to: number, score: number, mult: number) => {
    const start = turned ? from * n + row : row * n + from;
    const total = score + (placedCount >= bingo.minTiles ? bingo.bonus : 0);
    if (blanksDealt === 0) {
      list.add(start, turned, to - from + 1, total, placedCount, placedSq, placedTile, turn);
      return;
    }
    for (let k = 0; k < placedCount; k++) {
      const sq = placedSq[k]!;
      weight[k] =
        values[placedTile[k]!]! * letterMult[sq]! * (mult + (crossSum[sq]! >= 0 ? wordMult[sq]! : 0));
    }
    playStart = start;
    playLength = to - from + 1;
    variants(0, 0, total);
  };

  const extend = (
    row: number,
    node: number,
    col: number,
    anchorCol: number,
    from: number,
    mainSum: number,
    mult: number,
    cross: number,
  ): void => {
    const sq = row * n + col;
    const here = col < n ? cells[sq]! : NONE;
    // The word may end before this square (empty, or past the board's edge) once the anchor is covered. In the turned
    // board, a single tile that forms a word across (a cross word here) is the across pass's.
    if (
      here === NONE &&
      col > anchorCol &&
      dawg.isFinal(node) &&
      !(placedCount === 1 && direction === 'down' && crossSum[placedSq[0]!]! >= 0)
    )
      record(row, from, col - 1, mainSum * mult + cross, mult);
    if (col >= n) return;
    if (here === NONE) {
      let options = dawg.letters(node) & crossMask[sq]! & (ctx.blanks > 0 ? -1 : ctx.have);
      if (options === 0) return;
      const lm = letterMult[sq]!;
      const wm = wordMult[sq]!;
      const cs = crossSum[sq]!;
      while (options !== 0) {
        const l = 31 - Math.clz32(options & -options);
        options &= options - 1;
        const child = dawg.child(node, l);
        const real = counts[l]! > 0;
        if (real) {
          if (--counts[l]! === 0) ctx.have &= ~(1 << l);
        } else ctx.blanks--;
        placedSq[placedCount] = sq;
        placedTile[placedCount++] = l;
        const v = values[l]! * lm;
        extend(
          row,
          child,
          col + 1,
          anchorCol,
          from,
          mainSum + v,
          mult * wm,
          cs >= 0 ? cross + (cs + v) * wm : cross,
        );
        placedCount--;
        if (real) {
          if (counts[l]!++ === 0) ctx.have |= 1 << l;
        } else ctx.blanks++;
      }
    } else {
      if (here < 0) return;
      const child = dawg.child(node, here);
      if (child < 0) return;
      extend(row, child, col + 1, anchorCol, from, mainSum + (blank[sq] ? 0 : values[here]!), mult, cross);
    }
  };

  // The left parts of at most `limit` tiles, on the empty squares before the anchor (none of which has a tile above or
  // below: no cross word, any letter), each extended through the anchor when its word can go on there.
  const parts = ctx.parts;
  const prefix = new Int32Array(n);
  const took = new Uint8Array(n);
  const left = (row: number, anchorCol: number, limit: number): void => {
    const anchorSq = row * n + anchorCol;
    const allowed = crossMask[anchorSq]!;
    for (let i = 0; i < parts.size; ) {
      const depth = parts.depth[i]!;
      if (depth > limit) {
        i = parts.after[i]!;
        continue;
      }
      if (depth > 0) prefix[depth - 1] = parts.last[i]!;
      const node = parts.node[i]!;
      i++;
      if ((dawg.letters(node) & allowed) === 0) continue;
      placedCount = 0;
      let sum = 0;
      let mult = 1;
      for (let k = 0; k < depth; k++) {
        const sq = anchorSq - depth + k;
        const l = prefix[k]!;
        took[k] = counts[l]! > 0 ? 1 : 0;
        if (!took[k]) ctx.blanks--;
        else if (--counts[l]! === 0) ctx.have &= ~(1 << l);
        placedSq[placedCount] = sq;
        placedTile[placedCount++] = l;
        sum += values[l]! * letterMult[sq]!;
        mult *= wordMult[sq]!;
      }
      extend(row, node, anchorCol, anchorCol, anchorCol - depth, sum, mult, 0);
      for (let k = 0; k < depth; k++) {
        if (!took[k]) ctx.blanks++;
        else if (counts[prefix[k]!]!++ === 0) ctx.have |= 1 << prefix[k]!;
      }
    }
  };

  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      const sq = row * n + col;
      if (!anchor[sq]) continue;
      if (col > 0 && cells[sq - 1] !== NONE) {
        // The tiles already left of the anchor are the left part.
        let from = col - 1;
        while (from > 0 && cells[sq - (col - from) - 1] !== NONE) from--;
        let node = dawg.root;
        let sum = 0;
        for (let c = from; c < col && node >= 0; c++) {
          const t = cells[row * n + c]!;
          node = t < 0 ? -1 : dawg.child(node, t);
          if (t >= 0 && !blank[row * n + c]) sum += values[t]!;
        }
        if (node < 0) continue;
        placedCount = 0;
        extend(row, node, col, col, from, sum, 1, 0);
      } else {
        let limit = 0;
        for (let c = col - 1; c >= 0 && cells[row * n + c] === NONE && !anchor[row * n + c]; c--) limit++;
        left(row, col, limit);
      }
    }
  }
}

/**
 * Every prefix of a word that the rack can spell (the empty one first), of at most `most` tiles, depth-first: per
 * prefix its node, its length, its last letter, and the index past the prefixes that extend it. A rack's tile is taken
 * for a letter while the rack has one, a blank only when it has none. Worked out once per rack: every anchor's left
 * parts are among them.
 */
interface LeftParts {
  readonly size: number;
  readonly node: Int32Array;
  readonly depth: Uint8Array;
  readonly last: Int8Array;
  readonly after: Int32Array;
}

function leftParts(dawg: Dawg, counts: Int32Array, blanks: number, most: number): LeftParts {
  const node: number[] = [];
  const depth: number[] = [];
  const last: number[] = [];
  const after: number[] = [];
  let free = blanks;
  const walk = (at: number, d: number, letter: number): void => {
    const i = node.length;
    node.push(at);
    depth.push(d);
    last.push(letter);
    after.push(0);
    if (d < most) {
      let options = dawg.letters(at);
      while (options !== 0) {
        const l = 31 - Math.clz32(options & -options);
        options &= options - 1;
        const real = counts[l]! > 0;
        if (real) counts[l]!--;
        else if (free > 0) free--;
        else continue;
        walk(dawg.child(at, l), d + 1, l);
        if (real) counts[l]!++;
        else free++;
      }
    }
    after[i] = node.length;
  };
  walk(dawg.root, 0, -1);
  return {
    size: node.length,
    node: Int32Array.from(node),
    depth: Uint8Array.from(depth),
    last: Int8Array.from(last),
    after: Int32Array.from(after),
  };
}

/**
 * Plays packed in flat typed arrays (a position with two blanks, tens of thousands): per play its main
 * word's first square (row-major, on the board itself), direction, word length, score and tiles; per tile its square
 * and letter (an index into the lexicon's alphabet; -1 - index for a blank). `play(i)` unpacks one. The arrays grow
 * by doubling; only the first `size` entries (and `first[size - 1] + count[size - 1]` tiles) are plays.
 */
export class PlayList {
  size = 0;
  start = new Int32Array(256);
  down = new Uint8Array(256);
  length = new Uint8Array(256);
  score = new Int32Array(256);
  first = new Int32Array(256);
  count = new Uint8Array(256);
  tileSq = new Int32Array(1024);
  tileCode = new Int8Array(1024);
  private tiles = 0;

  constructor(
    readonly board: Board,
    readonly rack: string,
    readonly dawg: Dawg,
  ) {}

  /**
   * Adds a play of `count` tiles, `squares[k]` and `codes[k]`. `turn` is the board's side when the squares are of the
   * board turned over its diagonal (a down play found as an across one), 0 when they are the board's own.
   */
  add(
    start: number,
    down: boolean,
    length: number,
    score: number,
    count: number,
    squares: Int32Array,
    codes: Int32Array,
    turn: number,
  ): void {
    const i = this.size;
    if (i === this.score.length) this.growPlays();
    if (this.tiles + count > this.tileCode.length) this.growTiles(this.tiles + count);
    this.start[i] = start;
    this.down[i] = down ? 1 : 0;
    this.length[i] = length;
    this.score[i] = score;
    this.first[i] = this.tiles;
    this.count[i] = count;
    for (let k = 0; k < count; k++) {
      const sq = squares[k]!;
      this.tileSq[this.tiles] = turn ? (sq % turn) * turn + ((sq / turn) | 0) : sq;
      this.tileCode[this.tiles++] = codes[k]!;
    }
    this.size = i + 1;
  }

  /** The bytes its arrays take. */
  get bytes(): number {
    return [
      this.start,
      this.down,
      this.length,
      this.score,
      this.first,
      this.count,
      this.tileSq,
      this.tileCode,
    ].reduce((sum, a) => sum + a.byteLength, 0);
  }

  private growPlays(): void {
    const grow = <T extends Int32Array | Uint8Array>(a: T): T => {
      const b = new (a.constructor as { new (n: number): T })(a.length * 2);
      b.set(a);
      return b;
    };
    this.start = grow(this.start);
    this.down = grow(this.down);
    this.length = grow(this.length);
    this.score = grow(this.score);
    this.first = grow(this.first);
    this.count = grow(this.count);
  }

  private growTiles(need: number): void {
    let size = this.tileCode.length * 2;
    while (size < need) size *= 2;
    const sq = new Int32Array(size);
    sq.set(this.tileSq);
    const code = new Int8Array(size);
    code.set(this.tileCode);
    this.tileSq = sq;
    this.tileCode = code;
  }

  /** Play `i` as an object. */
  play(i: number): GeneratedPlay {
    const n = this.board.size;
    const { alphabet } = this.dawg;
    const placed = new Map<number, string>();
    for (let k = this.first[i]!; k < this.first[i]! + this.count[i]!; k++) {
      const code = this.tileCode[k]!;
      placed.set(this.tileSq[k]!, code >= 0 ? alphabet[code]! : alphabet[-1 - code]!.toLowerCase());
    }
    const placements = [...placed.entries()]
      .sort(([a], [b]) => a - b)
      .map(([sq, tile]) => ({ row: Math.floor(sq / n), col: sq % n, tile }));
    const step = this.down[i] ? n : 1;
    let word = '';
    for (let k = 0, sq = this.start[i]!; k < this.length[i]!; k++, sq += step)
      word += placed.get(sq) ?? this.board.cells[sq]!;
    return {
      row: Math.floor(this.start[i]! / n),
      col: this.start[i]! % n,
      direction: this.down[i] ? 'down' : 'across',
      word,
      placements,
      score: this.score[i]!,
      leave: this.leave(i),
    };
  }

  /** The rack's tiles that play `i` leaves, in the rack's order (`?` for a blank). */
  leave(i: number): string {
    const left = [...this.rack];
    for (let k = this.first[i]!; k < this.first[i]! + this.count[i]!; k++) {
      const code = this.tileCode[k]!;
      const ch = code < 0 ? BLANK : this.dawg.alphabet[code]!;
      const at = left.indexOf(ch);
      if (at >= 0) left.splice(at, 1);
    }
    return left.join('');
  }
}
