/**
 * `npm run bench:adapt`: learning the tile set being played, measured where it matters most, on the English wooden
 * tiles of kwwangkw-en/warped whose font the model never saw (labels corrected by models/label-errata.txt):
 * leave one board out — the other boards' squares serve as the game's committed tiles, kept in a TileMemory
 * (vision/adapt.ts: the model's penultimate features of each square, a vote of the nearest ones) — and the board
 * left out is read with it. Also on the German set, per game (the game's other photos as its committed tiles), to
 * see that it does no harm. Prints wrong squares and silent ones (wrong and not reported unsure), without and with
 * the game's examples. `--en`: the English set only. `--list`: every square that changed. `--boards N`: the examples
 * of the first N other boards only (early in a game; ChessCog adapts to a new set from two photos).
 */
import { TileMemory } from '../../vision/adapt.ts';
import { uprightGrid } from '../../vision/classify.ts';
import type { BoardReading } from '../../vision/index.ts';
import { type FrameState, readFrame } from '../../vision/recognize.ts';
import { readingOptions } from '../service/game/frames.ts';
import { labelledPhotos, realdata as shared } from './labelled.ts';

interface Board {
  file: string;
  group: string;
  photo: Uint8Array;
  truth: string[];
  plain: FrameState;
}

async function boards(dir: string, lang: 'en' | 'de', group: (file: string) => string): Promise<Board[]> {
  const set = readingOptions(lang);
  const out: Board[] = [];
  for (const { file, photo, truth } of labelledPhotos(dir)) {
    try {
      out.push({ file, group: group(file), photo, truth, plain: await readFrame(photo, set) });
    } catch {
      // no board found: not a reading to learn from or to measure here
    }
  }
  return out;
}

/** The labels of a board's squares as the camera saw them (row-major as seen, not upright). */
function seenLabels(truth: readonly string[], turns: number): string[] {
  const index = uprightGrid(
    Array.from({ length: 225 }, (_, i) => i),
    turns,
  );
  const out: string[] = new Array(225);
  index.forEach((seen, upright) => {
    const t = truth[upright]!;
    out[seen] = t === t.toLowerCase() && t !== '.' && t !== '?' ? '?' : t;
  });
  return out;
}

function count(reading: BoardReading, truth: readonly string[]) {
  const cells = [...reading.board.join('')];
  const unsure = new Set(reading.unsure.map((u) => u.row * 15 + u.col));
  let wrong = 0;
  let silent = 0;
  const squares: number[] = [];
  for (let i = 0; i < 225; i++) {
    if (cells[i] === truth[i]) continue;
    wrong++;
    squares.push(i);
    if (!unsure.has(i)) silent++;
  }
  return { wrong, silent, squares, cells };
}

const list = process.argv.includes('--list');
const boardsAt = process.argv.indexOf('--boards');
const maxBoards = boardsAt < 0 ? Number.POSITIVE_INFINITY : Number(process.argv[boardsAt + 1]);
if (boardsAt >= 0 && !(Number.isInteger(maxBoards) && maxBoards >= 1)) {
  console.error('bench:adapt: --boards needs a whole number of boards, 1 or more');
  process.exit(1);
}
/** Other settings of the memory to compare: ADAPT_K, ADAPT_STRENGTH, ADAPT_PER_LETTER, ADAPT_PLAIN. */
const tuning = Object.fromEntries(
  (
    [
      ['k', 'ADAPT_K'],
      ['strength', 'ADAPT_STRENGTH'],
      ['perLetter', 'ADAPT_PER_LETTER'],
      ['plain', 'ADAPT_PLAIN'],
    ] as const
  ).flatMap(([key, name]) => (process.env[name] ? [[key, Number(process.env[name])]] : [])),
);

async function measure(name: string, all: Board[], lang: 'en' | 'de') {
  const set = readingOptions(lang);
  let before = { wrong: 0, silent: 0 };
  let after = { wrong: 0, silent: 0 };
  let ms = 0;
  for (const board of all) {
    // The game's committed tiles: the other boards of its group (leave this one out), in order.
    const memory = new TileMemory(tuning);
    let taken = 0;
    for (const other of all) {
      if (other === board || other.group !== board.group || !other.plain.features) continue;
      if (taken++ >= maxBoards) break;
      const labels = seenLabels(other.truth, other.plain.seen.turns);
      const f = other.plain.features.length / 225;
      labels.forEach((label, i) => {
        memory.add(label, other.plain.features!.subarray(i * f, (i + 1) * f), other.plain.seen.turns);
      });
    }
    const t = performance.now();
    const adapted = (await readFrame(board.photo, { ...set, memory })).reading;
    ms += performance.now() - t;
    const b = count(board.plain.reading, board.truth);
    const a = count(adapted, board.truth);
    if (list) {
      for (const i of new Set([...b.squares, ...a.squares]))
        if (b.cells[i] !== a.cells[i])
          console.log(
            `  ${board.file} square ${i}: truth ${board.truth[i]} read ${b.cells[i]} → ${a.cells[i]}`,
          );
    }
    before = { wrong: before.wrong + b.wrong, silent: before.silent + b.silent };
    after = { wrong: after.wrong + a.wrong, silent: after.silent + a.silent };
  }
  const n = all.length * 225;
  const pct = (x: number) => `${((100 * x) / n).toFixed(3)}%`;
  console.log(
    `${name}: ${all.length} boards, ${n} squares — without the game's examples ${before.wrong} wrong (${pct(before.wrong)}), ${before.silent} silent (${pct(before.silent)}); with them ${after.wrong} wrong (${pct(after.wrong)}), ${after.silent} silent (${pct(after.silent)}); ${(ms / all.length).toFixed(1)} ms a board read with them`,
  );
}

const from = maxBoards === Number.POSITIVE_INFINITY ? '' : `, the examples of ${maxBoards} other board(s)`;
const en = await boards(shared('kwwangkw-en/warped'), 'en', () => 'kwwangkw');
await measure(`kwwangkw-en/warped, leave one board out${from}`, en, 'en');
if (process.argv.includes('--en')) process.exit(0);
const de = await boards(shared('scrabscrap-de'), 'de', (f) => f.split('/')[0]!);
await measure(`scrabscrap-de, leave one photo out within its game${from}`, de, 'de');
