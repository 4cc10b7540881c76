/**
 * The cell classifier: an ONNX model (models/cells.onnx, described by models/cells.json) run on all 225 cells in
 * one batch with onnxruntime-node on one thread. The model reads each tile's letter and its quarter turns; the
 * board's rotation is the turn most tiles agree on, and every cell is then read in that orientation.
 *
 * Where the metadata names a quick copy of the model (`quick`: models/cells.int8.onnx, made from this model by
 * `npm run quantize`), every cell is read by the copy first, and the cells it is not sure of (its likeliest class
 * under `trustAbove`) by the model itself: the copy reads 225 cells in half the time, and on the shared real photos
 * it never picked another class than the model's where its share was 0.6 or more (docs/measurements.md, session
 * 22). Its features are near the model's but not the same: a reading whose features are kept reads `exact`.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import type { TileMemory } from './adapt.ts';
import { type Rotation, VisionError } from './types.ts';

export const DEFAULT_MODEL = fileURLToPath(new URL('../models/cells.onnx', import.meta.url));

export interface CellModel {
  readonly session: ort.InferenceSession;
  readonly classes: readonly string[];
  readonly size: number;
  readonly margin: number;
  /** Length of the model's penultimate features per cell (its `features` output), 0 when it has none. */
  readonly features: number;
  /** The quick copy that reads every cell first, and the share of its likeliest class it is trusted at. */
  readonly quick?: { readonly session: ort.InferenceSession; readonly trustAbove: number };
  /** The seat reader: the model fine-tuned on seat views, for the squares a steep view squeezes (`SeatReader`). */
  readonly seat?: SeatReader;
}

/**
 * The model fine-tuned on rendered seat views (models/training/finetune.py), named by the model's metadata (`seat`).
 * Seen from a player's seat, the far rows' squares are squeezed to a third or a half of their width; the model, which
 * learnt squares seen from above, reads their letters unsure (E or L, H or R). Where a view is steep, the squares
 * whose height in the photo is under `belowAspect` of their width are read by this model too, and the two readings'
 * shares averaged, this one weighed `weight` (recognize.ts). Its own shares are not trusted alone: on real photos
 * squeezed so, it was sure of tiles it misread three times as often as the model (docs/measurements.md).
 */
export interface SeatReader {
  readonly model: CellModel;
  readonly weight: number;
  readonly belowAspect: number;
}

interface Metadata {
  classes: string[];
  input: { shape: [string, number, number, number]; cropMargin: number };
  quick?: { file?: unknown; sha256?: unknown; trustAbove?: unknown } | null;
  seat?: { file?: unknown; sha256?: unknown; weight?: unknown; belowAspect?: unknown } | null;
  quantisation?: { fromSha256?: unknown };
  fineTuning?: { fromSha256?: unknown };
}

const SESSION_OPTIONS: ort.InferenceSession.SessionOptions = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
};

const models = new Map<string, Promise<CellModel>>();

/** Loads (once per path) the model and its metadata file beside it. */
export function loadModel(path = DEFAULT_MODEL): Promise<CellModel> {
  let model = models.get(path);
  if (!model) {
    model = open(path);
    models.set(path, model);
    model.catch(() => models.delete(path));
  }
  return model;
}

async function open(path: string): Promise<CellModel> {
  const meta = await metadata(path);
  if (!Array.isArray(meta.classes) || meta.classes[0] !== '.' || !meta.input?.shape) {
    throw new VisionError('no-model', `the metadata beside ${path} does not describe a cell classifier`);
  }
  const bytes = await modelBytes(path);
  const session = await createSession(path, bytes);
  const out = session.outputMetadata.find((o) => o.name === 'features');
  const width = out?.isTensor ? Number(out.shape[1]) : 0;
  const features = Number.isInteger(width) && width > 0 ? width : 0;
  return {
    session,
    classes: meta.classes,
    size: meta.input.shape[2],
    margin: meta.input.cropMargin,
    features,
    ...(meta.quick === undefined ? {} : { quick: await openQuick(path, bytes, meta, features) }),
    ...(meta.seat === undefined ? {} : { seat: await openSeat(path, bytes, meta) }),
  };
}

/**
 * The seat reader named by the model's metadata (`seat`: its file beside the model, its SHA-256, its weight and the
 * squeeze it reads under). Fine-tuned from this very model (its metadata's `fineTuning.fromSha256`), reading the same
 * classes from the same crops. Any fault is the model's own failure to load, with what to do about it.
 */
async function openSeat(path: string, bytes: Uint8Array, meta: Metadata): Promise<SeatReader> {
  const remedy = `fine-tune it again (models/README.md), or take "seat" out of the metadata beside ${path}`;
  const { file, sha256, weight, belowAspect } =
    typeof meta.seat === 'object' && meta.seat !== null ? meta.seat : {};
  if (
    typeof file !== 'string' ||
    !/^[^/\\]+\.onnx$/.test(file) ||
    typeof sha256 !== 'string' ||
    typeof weight !== 'number' ||
    !(weight > 0 && weight <= 1) ||
    typeof belowAspect !== 'number' ||
    !(belowAspect > 0 && belowAspect <= 1)
  )
    throw new VisionError(
      'no-model',
      `the metadata beside ${path} names its seat reader badly: want "seat": { "file": an .onnx file beside it, "sha256": its SHA-256, "weight": a share in (0, 1], "belowAspect": a ratio in (0, 1] }`,
    );
  const {
    at: seatPath,
    meta: seatMeta,
    bytes: seatBytes,
  } = await companion(path, bytes, meta, file, sha256, {
    what: 'the seat reader',
    madeFrom: (m) => m.fineTuning?.fromSha256,
    made: 'fine-tuned from',
    remedy,
  });
  // Its squares are cut as the model's are (recognize.ts cuts them once, for both).
  if (JSON.stringify(seatMeta.input) !== JSON.stringify(meta.input))
    throw new VisionError('no-model', `${seatPath} reads other crops than ${path}: ${remedy}`);
  const session = await createSession(seatPath, seatBytes);
  const logits = session.outputMetadata.find((o) => o.name === 'logits');
  if (!(logits?.isTensor && Number(logits.shape[1]) === meta.classes.length))
    throw new VisionError('no-model', `${seatPath} gives no logits for ${path}'s classes: ${remedy}`);
  const out = session.outputMetadata.find((o) => o.name === 'features');
  const width = out?.isTensor ? Number(out.shape[1]) : 0;
  return {
    model: {
      session,
      classes: seatMeta.classes,
      size: seatMeta.input.shape[2],
      margin: seatMeta.input.cropMargin,
      features: Number.isInteger(width) && width > 0 ? width : 0,
    },
    weight,
    belowAspect,
  };
}

const hash = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/**
 * A model's companion file (its quick copy, its seat reader) named by the model's metadata: `file` beside the model,
 * its bytes of SHA-256 `sha256`, made from this very model (`madeFrom` of its own metadata gives the model's SHA-256),
 * reading the same classes. Any fault is the model's own failure to load, saying what to do (`remedy`).
 */
async function companion(
  path: string,
  bytes: Uint8Array,
  meta: Metadata,
  file: string,
  sha256: string,
  how: { what: string; madeFrom: (m: Metadata) => unknown; made: string; remedy: string },
): Promise<{ at: string; meta: Metadata; bytes: Uint8Array }> {
  const { what, remedy } = how;
  const at = join(dirname(path), file);
  let own: Metadata;
  let ownBytes: Uint8Array;
  try {
    own = await metadata(at);
    ownBytes = await modelBytes(at);
  } catch (err) {
    throw new VisionError('no-model', `${(err as Error).message}: ${what} of ${path}; ${remedy}`);
  }
  if (hash(ownBytes) !== sha256)
    throw new VisionError(
      'no-model',
      `${at} is not ${what} ${path}'s metadata names (another SHA-256): ${remedy}`,
    );
  if (how.madeFrom(own) !== hash(bytes))
    throw new VisionError('no-model', `${at} was not ${how.made} ${path} (another SHA-256): ${remedy}`);
  if (JSON.stringify(own.classes) !== JSON.stringify(meta.classes))
    throw new VisionError('no-model', `${at} reads other classes than ${path}: ${remedy}`);
  return { at, meta: own, bytes: ownBytes };
}

/**
 * The quick copy named by the model's metadata (`quick`: its file beside the model, its SHA-256, and the share it is
 * trusted at). It must have been made from this very model (the copy's metadata gives the model's SHA-256): a copy of
 * an earlier model would read cells by other weights than the ones it stands in for. Any fault is the model's own
 * failure to load, with what to do about it: the metadata asks for the copy.
 */
async function openQuick(
  path: string,
  bytes: Uint8Array,
  meta: Metadata,
  features: number,
): Promise<CellModel['quick']> {
  const remedy = `run \`npm run quantize\` again, or take "quick" out of the metadata beside ${path}`;
  const { file, trustAbove, sha256 } =
    typeof meta.quick === 'object' && meta.quick !== null ? meta.quick : {};
  if (
    typeof file !== 'string' ||
    !/^[^/\\]+\.onnx$/.test(file) ||
    typeof trustAbove !== 'number' ||
    !(trustAbove > 0 && trustAbove <= 1) ||
    typeof sha256 !== 'string'
  )
    throw new VisionError(
      'no-model',
      `the metadata beside ${path} names its quick copy badly: want "quick": { "file": an .onnx file beside it, "sha256": its SHA-256, "trustAbove": a share in (0, 1] }`,
    );
  const { at: quickPath, bytes: quickBytes } = await companion(path, bytes, meta, file, sha256, {
    what: 'the quick copy',
    madeFrom: (m) => m.quantisation?.fromSha256,
    made: 'made from',
    remedy,
  });
  const session = await createSession(quickPath, quickBytes);
  const out = session.outputMetadata.find((o) => o.name === 'features');
  if (features > 0 && !(out?.isTensor && Number(out.shape[1]) === features))
    throw new VisionError('no-model', `${quickPath} gives other features than ${path}: ${remedy}`);
  return { session, trustAbove };
}

async function metadata(path: string): Promise<Metadata> {
  try {
    return JSON.parse(await readFile(path.replace(/\.onnx$/, '.json'), 'utf8')) as Metadata;
  } catch (err) {
    throw new VisionError(
      'no-model',
      `cannot read the model's metadata beside ${path}: ${(err as Error).message}`,
    );
  }
}

async function modelBytes(path: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (err) {
    throw new VisionError('no-model', `cannot load the model ${path}: ${(err as Error).message}`);
  }
}

async function createSession(path: string, bytes: Uint8Array): Promise<ort.InferenceSession> {
  try {
    return await ort.InferenceSession.create(bytes, SESSION_OPTIONS);
  } catch (err) {
    throw new VisionError('no-model', `cannot load the model ${path}: ${(err as Error).message}`);
  }
}

/**
 * Class probabilities for every cell: `cells` is N×3×size×size, `probs` N×classes (softmax), and `features`
 * N×`model.features` when the model has them.
 */
export async function classifyCells(
  model: CellModel,
  cells: Float32Array,
  /** Every cell by the model itself, not by its quick copy first. */
  exact = false,
): Promise<{ probs: Float32Array; features: Float32Array | undefined }> {
  const per = 3 * model.size * model.size;
  const n = cells.length / per;
  const k = model.classes.length;
  const run = async (session: ort.InferenceSession, data: Float32Array, count: number) => {
    const output = await session.run({
      cells: new ort.Tensor('float32', data, [count, 3, model.size, model.size]),
    });
    return {
      logits: output.logits!.data as Float32Array,
      features: model.features > 0 ? (output.features?.data as Float32Array | undefined) : undefined,
    };
  };
  const quick = exact ? undefined : model.quick;
  const first = await run(quick?.session ?? model.session, cells, n);
  const probs = new Float32Array(n * k);
  softmax(first.logits, probs, k);
  if (!quick) return { probs, features: first.features };
  // The cells the quick copy is not sure of are read again by the model itself.
  const doubtful: number[] = [];
  for (let i = 0; i < n; i++) {
    let top = 0;
    for (let j = 0; j < k; j++) top = Math.max(top, probs[i * k + j]!);
    if (top < quick.trustAbove) doubtful.push(i);
  }
  if (doubtful.length === 0) return { probs, features: first.features };
  const again = new Float32Array(doubtful.length * per);
  doubtful.forEach((cell, j) => {
    again.set(cells.subarray(cell * per, (cell + 1) * per), j * per);
  });
  const second = await run(model.session, again, doubtful.length);
  const sure = new Float32Array(doubtful.length * k);
  softmax(second.logits, sure, k);
  const f = model.features;
  doubtful.forEach((cell, j) => {
    probs.set(sure.subarray(j * k, (j + 1) * k), cell * k);
    if (first.features && second.features)
      first.features.set(second.features.subarray(j * f, (j + 1) * f), cell * f);
  });
  return { probs, features: first.features };
}

/** Each row of `k` logits as class shares. */
function softmax(logits: Float32Array, probs: Float32Array, k: number): void {
  for (let i = 0; i < logits.length / k; i++) {
    let max = -Infinity;
    for (let j = 0; j < k; j++) max = Math.max(max, logits[i * k + j]!);
    let sum = 0;
    for (let j = 0; j < k; j++) {
      const e = Math.exp(logits[i * k + j]! - max);
      probs[i * k + j] = e;
      sum += e;
    }
    for (let j = 0; j < k; j++) probs[i * k + j]! /= sum;
  }
}

/** The game's examples of its tile set, and every cell's features to compare with them (adapt.ts). */
export interface MemoryLook {
  readonly memory: TileMemory;
  /** 225 × `size` features, row-major cells as seen. */
  readonly features: Float32Array;
  readonly size: number;
  /** Cells (as seen) that a steep view squeezes: weighed by the memory's squeezed part instead, or not at all where
   *  it has none. */
  readonly squeezed?: ReadonlySet<number>;
}

/** A square read empty with at least this share is not compared with the game's examples (most squares are). */
const PLAINLY_EMPTY = 0.99;

export interface CellReading {
  /** 15×15 characters as seen (not yet turned upright). */
  readonly chars: string[];
  readonly confidence: number[];
  /** Per cell, the share of "empty or blank" among the readings (see `confidence`). */
  readonly pair: number[];
  /** Per cell, the most likely letter whatever the reading, and its share and the blank's among the readings. */
  readonly letter: string[];
  readonly letterShare: number[];
  readonly blankShare: number[];
  /** Per cell, its likeliest readings (empty, blank, a letter, or `#`: a hand over it) with their shares. */
  readonly options: readonly (readonly Alternative[])[];
  /** The model's raw scores per cell for each reading in `keys` (before the game's examples weigh them), and for a
   *  hand. */
  readonly scores: {
    readonly keys: readonly string[];
    readonly cells: readonly number[][];
    readonly hand: readonly number[];
  };
  /** Quarter turns clockwise of the letters as seen. */
  readonly turns: 0 | 1 | 2 | 3;
  /**
   * Per cell, a letter outside the allowed ones that the model scores above the allowed letter the cell is read as
   * ('' where none): an Ä on a board read as English. The reading keeps the allowed letter; this says the tile set
   * chosen may be the wrong one.
   */
  readonly foreign: string[];
}

/** One reading of a square and the model's share for it. */
export interface Alternative {
  readonly tile: string;
  readonly p: number;
}

/**
 * How many times the allowed letter's score a letter outside the set must have for a cell to say so (`foreign`):
 * 4 times, or twice on a cell read with a confidence under UNSURE_BELOW (the reporting threshold). Measured over
 * the labelled real photos read as English (`npm run bench:foreign`): letters of the English sets' own tiles never
 * score more than 1.95 times as an Ä, Ö or Ü, and none of those is a cell in doubt; the German boards' Ä, Ö and Ü
 * score at least 2.1 times the letter read in their place (most of them hundreds of times). So flagged: 144 of the
 * 146 German boards that show them, 0 English squares.
 */
const FOREIGN_MARGIN = 4;
const DOUBTED_MARGIN = 2;
const UNSURE_BELOW = 0.8;

/** How many readings of each square are kept. */
const OPTIONS = 4;

/** Each letter class of the model (a letter and its quarter turns, `U0`…`U3`) by name, with its index. */
function lettersByTurn(model: CellModel): Map<string, number> {
  const byTurn = new Map<string, number>();
  model.classes.forEach((name, index) => {
    if (name.length === 2 && /\d/.test(name[1]!)) byTurn.set(name, index);
  });
  return byTurn;
}

/** The quarter turns clockwise of the letters as seen: the turn with the most letter probability over the board. */
export function boardTurns(
  model: CellModel,
  probs: Float32Array,
  byTurn: ReadonlyMap<string, number> = lettersByTurn(model),
): 0 | 1 | 2 | 3 {
  const k = model.classes.length;
  const n = probs.length / k;
  const turnMass = [0, 0, 0, 0];
  // The same sums in the same order, without a string or a map in the loop.
  const turnIndex = Int32Array.from(byTurn.values());
  const turnOf = Uint8Array.from([...byTurn.keys()].map((name) => Number(name[1])));
  for (let i = 0; i < n; i++)
    for (let t = 0; t < turnIndex.length; t++) turnMass[turnOf[t]!]! += probs[i * k + turnIndex[t]!]!;
  return turnMass.indexOf(Math.max(...turnMass)) as 0 | 1 | 2 | 3;
}

/**
 * Reads the cells: the orientation with the most letter probability over the board wins, then each cell takes
 * its most likely reading among empty, blank and the allowed letters in that orientation. Its confidence is that
 * reading's share among those readings and "a hand is over it", so a hand, or a square where two readings
 * compete, stays low and is reported unsure.
 */
export function readCells(
  model: CellModel,
  probs: Float32Array,
  allowed?: ReadonlySet<string>,
  /** The game's own tiles, which weigh the model's scores of every cell read (see adapt.ts). */
  look?: MemoryLook,
  /** Read only these cells (the others come out empty, with no confidence): for a look at a few. */
  only?: ReadonlySet<number>,
  /**
   * The reading of an earlier frame of the same camera whose probabilities the cells not in `only` still have: those
   * cells are taken from it as they were (when the letters face the same way), `only` read afresh.
   */
  previous?: CellReading,
): CellReading {
  const k = model.classes.length;
  const n = probs.length / k;
  const byTurn = lettersByTurn(model);
  const turns = boardTurns(model, probs, byTurn);
  const letters = [...new Set([...byTurn.keys()].map((name) => name[0]!))].filter(
    (l) => !allowed || allowed.has(l),
  );
  const keep = previous && previous.turns === turns ? previous : undefined;
  // A previous reading that cannot be reused (the letters now face another way): every cell is read from its
  // probabilities, which are all there.
  const some = previous && !keep ? undefined : only;
  const keys = ['.', '?', ...letters];
  const letterIndex = Int32Array.from(letters, (l) => byTurn.get(`${l}${turns}`) ?? -1);
  const outside = allowed
    ? [...new Set([...byTurn.keys()].map((name) => name[0]!))].filter((l) => !allowed.has(l))
    : [];
  const outsideIndex = Int32Array.from(outside, (l) => byTurn.get(`${l}${turns}`) ?? -1);
  const empty = model.classes.indexOf('.');
  const blank = model.classes.indexOf('?');
  const hand = model.classes.indexOf('#');
  const chars: string[] = [];
  const confidence: number[] = [];
  const pair: number[] = [];
  const letter: string[] = [];
  const letterShare: number[] = [];
  const blankShare: number[] = [];
  const options: (readonly Alternative[])[] = [];
  const scoreRows: number[][] = [];
  const foreign: string[] = [];
  for (let i = 0; i < n; i++) {
    if (some && !some.has(i) && keep) {
      chars.push(keep.chars[i]!);
      confidence.push(keep.confidence[i]!);
      pair.push(keep.pair[i]!);
      letter.push(keep.letter[i]!);
      letterShare.push(keep.letterShare[i]!);
      blankShare.push(keep.blankShare[i]!);
      options.push(keep.options[i]!);
      scoreRows.push(keep.scores.cells[i]!);
      foreign.push(keep.foreign[i]!);
      continue;
    }
    if (some && !some.has(i)) {
      chars.push('.');
      confidence.push(0);
      pair.push(0);
      letter.push('?');
      letterShare.push(0);
      blankShare.push(0);
      options.push([]);
      scoreRows.push([]);
      foreign.push('');
      continue;
    }
    const p = (index: number) => (index < 0 ? 0 : probs[i * k + index]!);
    // The model's score of each reading of `keys`: empty, blank, then each letter facing the board's way.
    const raw = new Array<number>(keys.length);
    raw[0] = p(empty);
    raw[1] = p(blank);
    for (let j = 0; j < letterIndex.length; j++) raw[j + 2] = p(letterIndex[j]!);
    scoreRows.push(raw);
    const memory = look && (look.squeezed?.has(i) ? look.memory.squeezed : look.memory);
    const weights =
      look && memory && memory.turns === turns && raw[0]! < PLAINLY_EMPTY
        ? memory.weigh(look.features.subarray(i * look.size, (i + 1) * look.size), keys)
        : undefined;
    const weighed = weights && raw.map((v, j) => v * weights[j]!);
    // The game's examples count only where they change which reading leads: where they agree with the model, the
    // model's own shares stand (the examples are seen through the same model: agreeing, they add no certainty).
    // And they may only lead to a reading enough of the nearest examples vote for (TileMemory.backs: most of them, all
    // of them for a steep view's squeezed squares): a reading with no example yet, or
    // fewer than a majority of the vote (its factor neutral: TileMemory.knows), never takes the lead by the others
    // being voted down.
    // (Such a reading's factor is 1, a majority's by its size: seen from a seat, a far row's E, voted down by the
    // near rows' E it looks nothing like, was read as an L the game had no example of.)
    const flipped =
      weighed !== undefined &&
      leader(weighed) !== leader(raw) &&
      memory!.knows(keys[leader(weighed)]!) &&
      memory!.backs(weights![leader(weighed)]!);
    const scores = flipped ? weighed : raw;
    let best = 0;
    let bestLetter = -1;
    let total = p(hand);
    let rawTotal = p(hand);
    for (let j = 0; j < scores.length; j++) {
      total += scores[j]!;
      rawTotal += raw[j]!;
      if (scores[j]! > scores[best]!) best = j;
      if (j >= 2 && scores[j]! > (bestLetter < 0 ? 0 : scores[bestLetter]!)) bestLetter = j;
    }
    const share = (v: number) => (total > 0 ? v / total : 0);
    const rawShare = (v: number) => (rawTotal > 0 ? v / rawTotal : 0);
    chars.push(keys[best]!);
    let other = '';
    if (best >= 2) {
      const doubted = Math.min(share(scores[best]!), rawShare(raw[best]!)) < UNSURE_BELOW;
      let top = (doubted ? DOUBTED_MARGIN : FOREIGN_MARGIN) * raw[best]!;
      for (let j = 0; j < outsideIndex.length; j++)
        if (p(outsideIndex[j]!) > top) {
          top = p(outsideIndex[j]!);
          other = outside[j]!;
        }
    }
    foreign.push(other);
    // A reading the examples chose against the model stays in doubt: never surer than the model alone is of it.
    confidence.push(Math.min(share(scores[best]!), rawShare(raw[best]!)));
    // Empty or blank is the board's colours' to settle (surface.ts), from the model's own shares.
    pair.push(rawShare(p(empty) + p(blank)));
    letter.push(bestLetter < 0 ? '?' : keys[bestLetter]!);
    letterShare.push(bestLetter < 0 ? 0 : share(scores[bestLetter]!));
    blankShare.push(rawShare(p(blank)));
    // The likeliest readings, a hand over the square last among them (`keys.length`): each reading's share, never
    // above the model's own for it where the examples changed the lead (the game's context weighs these shares by
    // thresholds measured on the model's). Picked as a stable sort by falling score would order them, ties in
    // `keys` order.
    const top = likeliest(scores, p(hand));
    options.push(
      top.map((j) => {
        const v = j < keys.length ? scores[j]! : p(hand);
        const r = j < keys.length ? raw[j]! : p(hand);
        return {
          tile: j < keys.length ? keys[j]! : '#',
          p: flipped ? Math.min(share(v), rawShare(r)) : share(v),
        };
      }),
    );
  }
  return {
    chars,
    confidence,
    pair,
    letter,
    letterShare,
    blankShare,
    options,
    scores: {
      keys,
      cells: scoreRows,
      hand: hand < 0 ? [] : Array.from({ length: n }, (_, i) => probs[i * k + hand]!),
    },
    turns,
    foreign,
  };
}

/** The index of the first highest score. */
function leader(scores: readonly number[]): number {
  let best = 0;
  for (let j = 1; j < scores.length; j++) if (scores[j]! > scores[best]!) best = j;
  return best;
}

/**
 * The indices of the `OPTIONS` highest of `scores` followed by `last` (index `scores.length`), highest first, ties in
 * index order: the first `OPTIONS` of a stable sort by falling score, without sorting the rest.
 */
export function likeliest(scores: readonly number[], last: number): number[] {
  const top: number[] = [];
  const at: number[] = [];
  for (let j = 0; j <= scores.length; j++) {
    const v = j < scores.length ? scores[j]! : last;
    // After every kept score at least as high (ties keep their order).
    let q = top.length;
    while (q > 0 && at[q - 1]! < v) q--;
    if (q >= OPTIONS) continue;
    top.splice(q, 0, j);
    at.splice(q, 0, v);
    if (top.length > OPTIONS) {
      top.pop();
      at.pop();
    }
  }
  return top;
}

/** Turns a row-major 15×15 grid seen rotated `turns` quarter turns clockwise back upright. */
export function uprightGrid<T>(seen: readonly T[], turns: number): T[] {
  if (turns !== 0 && turns !== 1 && turns !== 2 && turns !== 3)
    throw new RangeError(`${turns} quarter turns`);
  const out: T[] = [];
  for (let r = 0; r < 15; r++) {
    for (let c = 0; c < 15; c++) {
      // The square seen at (sr, sc) is upright at (r, c).
      const sr = turns === 0 ? r : turns === 1 ? c : turns === 2 ? 14 - r : 14 - c;
      const sc = turns === 0 ? c : turns === 1 ? 14 - r : turns === 2 ? 14 - c : r;
      out.push(seen[sr * 15 + sc]!);
    }
  }
  return out;
}

export function rotationOf(turns: number): Rotation {
  return (turns * 90) as Rotation;
}
