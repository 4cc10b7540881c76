/**
 * Learning the tile set being played, from the game's own tiles: every square the game has committed is a labelled
 * example of how this set's tiles (and this board's empty squares) look to the model. The examples are kept as the
 * model's penultimate features (the 128 numbers its last layer turns into scores; for the squeezed squares, below, the
 * seat reader's where it read them, the model's where the board's plane reads them empty), and a square read later is
 * compared with its nearest examples: their vote weighs the model's scores for each reading. A font the model never
 * saw, whose I the model reads as half L, has its I's read by the I's this game has already committed. The model is
 * the same file for everyone; only the examples are the game's. Pure.
 *
 * Empty and blank vote together ("plain"): which of the two a plain square is, the board's colours decide
 * (surface.ts), and a blank looks too much like an empty square of its colour for the features to tell.
 *
 * The squares a steep view squeezes (a seat's far rows, read by the seat reader too) are examples of their own, in
 * a part of the memory apart (`squeezed`): a squeezed glyph's features are not those of the same letter nearer the
 * camera (a far E, weighed by the near rows' E's, was read as an L), but they are much those of the same letter
 * squeezed alike. There a reading takes the lead only where all the nearest examples vote for it.
 */

export interface MemoryOptions {
  /** Nearest examples that vote (default 7). */
  readonly k?: number;
  /** Examples kept per letter, the newest (default 24). */
  readonly perLetter?: number;
  /** Examples kept of plain squares (empty or blank), the newest (default 96: premium squares differ in colour). */
  readonly plain?: number;
  /** How much a vote counts against the model's own scores (a power on the vote's share; default 1). */
  readonly strength?: number;
  /** Votes of the `k` nearest a reading needs to take the lead from the model's (default a majority; the squeezed
   *  part always needs all `k`). */
  readonly needs?: number;
  /**
   * Whether the squares a steep view squeezes are learnt and weighed, by examples of their own (`squeezed`; default
   * true). Without, they are neither.
   */
  readonly squeezed?: boolean;
}

const PLAIN = '.';
/** The vote's prior per reading: a reading no neighbour voted for keeps some weight. */
const PRIOR = 0.5;
/** Fewer letters than this among the examples: too little of the set seen to vote. */
const MIN_LETTERS = 3;

/** The group a reading votes in: empty and blank together, each letter alone. */
const groupOf = (label: string) => (label === '?' ? PLAIN : label);

/** Examples of how a set's squares look to the model, learnt from a game's committed squares. */
export class TileMemory {
  private readonly examples = new Map<string, Float32Array[]>();
  private cache: { matrix: Float32Array; groups: Int32Array; names: string[] } | undefined;
  private readonly k: number;
  private readonly perLetter: number;
  private readonly plain: number;
  private readonly strength: number;
  /** Quarter turns of the letters as seen when the examples were taken: features of turned glyphs differ. */
  turns: 0 | 1 | 2 | 3 | undefined;
  private readonly needs: number;
  /**
   * The examples of the squares a steep view squeezes, learnt and weighed apart (the module's comment); cleared with
   * this memory. Undefined in such a part itself, and where the options ask for none.
   */
  readonly squeezed: TileMemory | undefined;

  constructor(options: MemoryOptions = {}) {
    const { k = 7, perLetter = 24, plain = 96, strength = 1, needs = Math.floor(k / 2) + 1 } = options;
    this.k = k;
    this.perLetter = perLetter;
    this.plain = plain;
    this.strength = strength;
    this.needs = Number.isFinite(needs) ? Math.min(k, Math.max(1, needs)) : Math.floor(k / 2) + 1;
    // In the squeezed part a reading takes the lead only where all the `k` nearest vote for it. Played through the
    // rendered seat games at 62° and 68° (docs/measurements.md, session 46), a majority also flipped far O's to D's
    // and L's to I's, and the scorekeeper had more to correct at 68° than with no such examples.
    this.squeezed =
      options.squeezed === false ? undefined : new TileMemory({ ...options, squeezed: false, needs: k });
  }

  /** Examples kept (not counting the squeezed part's). */
  get size(): number {
    let n = 0;
    for (const list of this.examples.values()) n += list.length;
    return n;
  }

  /** Whether enough of the set has been seen for its votes to count. */
  get ready(): boolean {
    let letters = 0;
    for (const key of this.examples.keys()) if (key !== PLAIN) letters++;
    return letters >= MIN_LETTERS;
  }

  /**
   * Keeps `feature` (copied, normalised) as an example of `label` (`.` empty, `?` blank, or a letter), letters seen
   * facing `turns` quarter turns. Examples seen facing another way replace all kept ones (of this memory; its
   * squeezed part keeps its own `turns`).
   */
  add(label: string, feature: Float32Array, turns: 0 | 1 | 2 | 3): void {
    this.cache = undefined;
    if (this.turns !== turns) {
      this.examples.clear();
      this.turns = turns;
    }
    const group = groupOf(label);
    let list = this.examples.get(group);
    if (!list) {
      list = [];
      this.examples.set(group, list);
    }
    list.push(normalised(feature));
    const cap = group === PLAIN ? this.plain : this.perLetter;
    if (list.length > cap) list.splice(0, list.length - cap);
  }

  /** Forgets every example. */
  clear(): void {
    this.examples.clear();
    this.cache = undefined;
    this.turns = undefined;
    this.squeezed?.clear();
  }

  /**
   * Whether the game has examples enough of the reading `key` (`.` and `?` together) to vote on it: as many as a
   * majority of the `k` nearest. A reading with fewer is not voted on, neither up nor down (`weigh`).
   */
  knows(key: string): boolean {
    return (this.examples.get(groupOf(key))?.length ?? 0) >= this.majority;
  }

  /** Votes that make a majority of the `k` nearest. */
  private get majority(): number {
    return Math.floor(this.k / 2) + 1;
  }

  /** Whether a factor from `weigh` is the votes a reading needs to take the lead (`needs`: a majority unless set). */
  backs(factor: number): boolean {
    return factor >= ((this.needs + PRIOR) / (this.k + PRIOR)) ** this.strength - 1e-9;
  }

  /**
   * Per reading of `keys`, a factor for the model's score of that reading on a square whose features are
   * `feature`, from its `k` nearest examples: (votes + ½) / (k + ½) to the power `strength`, 1 for a reading with
   * fewer examples than a majority of the vote (`knows`). Undefined when the memory is not ready.
   */
  weigh(feature: Float32Array, keys: readonly string[]): Float64Array | undefined {
    if (!this.ready) return undefined;
    const { matrix, groups, names } = this.flat();
    const f = normalised(feature);
    const d = f.length;
    const n = groups.length;
    // The k most similar examples (cosine: the vectors are normalised), kept sorted, best first.
    const k = Math.min(this.k, n);
    const sims = new Float64Array(k).fill(-Infinity);
    const which = new Int32Array(k);
    for (let e = 0; e < n; e++) {
      let sim = 0;
      for (let j = 0, o = e * d; j < d; j++, o++) sim += matrix[o]! * f[j]!;
      if (sim <= sims[k - 1]!) continue;
      let at = k - 1;
      while (at > 0 && sims[at - 1]! < sim) {
        sims[at] = sims[at - 1]!;
        which[at] = which[at - 1]!;
        at--;
      }
      sims[at] = sim;
      which[at] = groups[e]!;
    }
    const votes = new Float64Array(names.length);
    for (let i = 0; i < k; i++) votes[which[i]!]! += 1;
    const byName = new Map(names.map((name, g) => [name, votes[g]!]));
    // A reading the game has no example of yet is not voted against: the examples cannot say how it looks. Nor is
    // one with fewer examples than a majority of the vote (`knows`): it could not win the vote however the square
    // looks, and early in a game its one or two examples lose a square to a letter seen more often (kwwangkw-en's
    // G read C, F read E, from two boards' examples: docs/measurements.md, "ChessCog's two photos").
    return Float64Array.from(keys, (key) => {
      const v = byName.get(groupOf(key));
      return v === undefined || !this.knows(key) ? 1 : ((v + PRIOR) / (k + PRIOR)) ** this.strength;
    });
  }

  /** The examples as one matrix (a row each) and each row's group, made again only after an example is added. */
  private flat(): { matrix: Float32Array; groups: Int32Array; names: string[] } {
    if (this.cache) return this.cache;
    const names = [...this.examples.keys()];
    const rows = [...this.examples.values()].flat();
    const d = rows[0]?.length ?? 0;
    const matrix = new Float32Array(rows.length * d);
    const groups = new Int32Array(rows.length);
    let r = 0;
    names.forEach((name, g) => {
      for (const row of this.examples.get(name)!) {
        matrix.set(row, r * d);
        groups[r++] = g;
      }
    });
    this.cache = { matrix, groups, names };
    return this.cache;
  }
}

function normalised(v: Float32Array): Float32Array {
  let n = 0;
  for (let j = 0; j < v.length; j++) n += v[j]! * v[j]!;
  n = Math.sqrt(n) || 1;
  // A plain loop: Float32Array.from with a mapping function is many times slower (a learnt frame adds 225).
  const out = new Float32Array(v.length);
  for (let j = 0; j < v.length; j++) out[j] = v[j]! / n;
  return out;
}
