/**
 * `npm run bench:context [-- --draws N] [--list]`: how the game's context (server/service/game/interpret.ts: the
 * legal placement, the tile counts, the lexicon) decides the squares a camera is unsure of, measured on many real
 * moves rather than the few a rendered game has. The doubt is the camera's own: every labelled frame of the committed
 * seat renders (fixtures/seat's 36 views, the seat games at 55°, 62° and 68°) is read cold, as `tilecam eval` reads
 * it, and each square whose label is a letter gives one reading of that letter as the game would see it: sure, or
 * unsure with its reported alternatives (a frame whose grid is in doubt, and a letter read surely as another, are
 * left out: neither is the context's to decide). Then every play of the English games of ../shared/corpus/gcg is read
 * `--draws` times (default 3): each new tile by a reading of its letter drawn at random (seeded: the same draws every
 * run), a blank as the camera reads one, `?`; the committed board as the game holds it. Counted over the plays read
 * with a square in doubt: held for a person, taken right, taken wrong (every taken square the context decided is
 * marked on the scorekeeper's board; wrong is wrong all the same). `--list`: every play taken wrong.
 *
 * What it is for: a change to how the context weighs readings (the lexicon's weight, the share that commits, a new
 * rule) trades holds against squares taken wrong; the renders' own games have too few doubtful moves to show it.
 * A bench: it exits 0 whatever the figures, 1 when the data is missing or an option is wrong.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { recognize, VisionError } from '../../vision/index.ts';
import { runtimeLine } from '../cli/node-flags.ts';
import {
  type Board,
  decodeGcg,
  readGcg,
  replayGcg,
  squareName,
  standardLayout,
  tileSets,
} from '../engine/index.ts';
import { readingLexicon } from '../lexicon/index.ts';
import { readingOptions } from '../service/game/frames.ts';
import { HAND_SHARE, interpret, type Option, type Reading } from '../service/game/interpret.ts';
import { labelledPhotos } from './labelled.ts';

function fail(message: string): never {
  console.error(`bench:context: ${message}`);
  process.exit(1);
}

const argv = process.argv.slice(2);
const known = new Set(['--draws', '--list']);
const unknown = argv.find((a, i) => !known.has(a) && argv[i - 1] !== '--draws');
if (unknown) fail(`unknown option ${unknown}`);
const drawsAt = argv.indexOf('--draws');
const draws = drawsAt < 0 ? 3 : Number(argv[drawsAt + 1]);
if (!(Number.isInteger(draws) && draws >= 1 && draws <= 20)) fail('--draws: a whole number from 1 to 20');
const listing = argv.includes('--list');

const here = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const frames = [
  'fixtures/seat/45-55',
  'fixtures/seat/55-65',
  'fixtures/seat/65-75',
  'fixtures/seat-game',
  'fixtures/seat-game-62',
  'fixtures/seat-game-68',
].map(here);
const corpus = here('../shared/corpus/gcg');
for (const dir of [...frames, corpus]) if (!existsSync(dir)) fail(`no data: ${dir} is missing`);

/** One reading of a letter as the game sees it: sure (no options), or unsure with its reported options. */
type Seen = { readonly options?: readonly Option[] };

const t0 = performance.now();
const seen = new Map<string, Seen[]>();
let squares = 0;
let silent = 0;
let hands = 0;
let framesRead = 0;
const set = readingOptions('en');
for (const dir of frames) {
  for (const { photo, truth } of labelledPhotos(dir)) {
    let reading: Awaited<ReturnType<typeof recognize>>;
    try {
      reading = await recognize(photo, set);
    } catch (err) {
      if (err instanceof VisionError) continue;
      throw err;
    }
    if (reading.gridDoubt) continue;
    framesRead++;
    const options = new Map(reading.alternatives.map((a) => [a.row * 15 + a.col, a.options]));
    const cells = reading.board.join('');
    truth.forEach((letter, i) => {
      if (!/^[A-Z]$/.test(letter)) return;
      squares++;
      const unsure = options.get(i);
      if (!unsure && cells[i] !== letter) {
        silent++;
        return;
      }
      // A square read as a hand (an arm over the seat views) is the hand check's, over the hand's region: a square
      // drawn alone cannot show it.
      if ((unsure?.find((o) => o.tile === '#')?.p ?? 0) >= HAND_SHARE) {
        hands++;
        return;
      }
      const list = seen.get(letter) ?? seen.set(letter, []).get(letter)!;
      list.push(unsure ? { options: unsure } : {});
    });
  }
}
const readMs = performance.now() - t0;

/** The plays of the English games: the board before and after. A phony is read as played; its taking back (tiles
 *  leaving the board) is no play, and is left out. */
const plays: { game: string; before: Board; after: Board }[] = [];
for (const sub of readdirSync(corpus).sort()) {
  for (const file of readdirSync(join(corpus, sub)).sort()) {
    if (!file.endsWith('.gcg')) continue;
    const decoded = decodeGcg(readFileSync(join(corpus, sub, file)));
    if (!decoded.ok) continue;
    const doc = readGcg(decoded.text);
    if (!doc.ok) continue;
    const boards: Board[] = [];
    const replayed = replayGcg(doc.document, { before: (_entry, state) => boards.push(state.board) });
    if (!replayed.ok || replayed.report.lang !== 'en') continue;
    boards.push(replayed.report.state.board);
    for (let i = 0; i + 1 < boards.length; i++) {
      const [a, b] = [boards[i]!, boards[i + 1]!];
      if (!b.cells.some((c, j) => a.cells[j] === '.' && c !== '.')) continue;
      if (a.cells.some((c, j) => c !== '.' && b.cells[j] !== c)) continue;
      plays.push({ game: `${sub}/${file}`, before: a, after: b });
    }
  }
}
if (plays.length === 0) fail(`no English play in ${corpus}`);

// Mulberry32, seeded: the same draws every run (32-bit integer arithmetic, Math.imul: a period of 2^32).
let state = 20261130;
const random = () => {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
};
/** As an English game reads with it. */
const lexicon = readingLexicon('en')!;
const tally = { doubtful: 0, held: 0, right: 0, wrong: 0, missing: 0 };
const wrongPlays: string[] = [];
const t1 = performance.now();
for (let draw = 0; draw < draws; draw++) {
  for (const play of plays) {
    const cells = play.after.cells.slice();
    const alternatives: Reading['alternatives'][number][] = [];
    play.after.cells.forEach((tile, i) => {
      if (play.before.cells[i] !== '.' || tile === '.') return;
      // A blank, as the camera reads one.
      if (tile !== tile.toUpperCase()) {
        cells[i] = '?';
        return;
      }
      const readings = seen.get(tile);
      if (!readings) {
        tally.missing++;
        return;
      }
      const { options } = readings[Math.floor(random() * readings.length)]!;
      if (!options) return;
      cells[i] = options[0]!.tile;
      alternatives.push({ row: Math.floor(i / 15), col: i % 15, options });
    });
    if (alternatives.length === 0) continue;
    tally.doubtful++;
    const out = interpret(
      {
        board: { size: 15, cells },
        unsure: alternatives.map(({ row, col }) => ({ row, col })),
        alternatives,
      },
      { committed: play.before, layout: standardLayout, tileSet: tileSets.en, lexicon },
    );
    if (out.doubts.length > 0 || out.hand) {
      tally.held++;
      continue;
    }
    const wrong = out.board.cells.flatMap((c, i) => {
      const t = play.after.cells[i]!;
      if (c === t || (c === '?' && t !== t.toUpperCase())) return [];
      const read = alternatives.find((a) => a.row * 15 + a.col === i)?.options;
      const shares = read ? ` (${read.map((o) => `${o.tile} ${o.p.toFixed(2)}`).join(', ')})` : '';
      return [`${squareName({ row: Math.floor(i / 15), col: i % 15 })} ${t}→${c}${shares}`];
    });
    if (wrong.length === 0) tally.right++;
    else {
      tally.wrong++;
      wrongPlays.push(`  ${play.game} draw ${draw}: ${wrong.join(', ')}`);
    }
  }
}
const pct = (n: number) => `${((100 * n) / Math.max(tally.doubtful, 1)).toFixed(1)}%`;
let readings = 0;
for (const l of seen.values()) readings += l.length;
let unsure = 0;
for (const l of seen.values()) unsure += l.filter((r) => r.options).length;
console.log(
  `the camera's readings: ${framesRead} frames of the seat renders read cold (${(readMs / 1000).toFixed(0)} s), ${squares} squares with a letter: ${readings} kept, ${unsure} of them unsure; ${silent} read surely as another letter and ${hands} as a hand (left out)`,
);
console.log(
  `${plays.length} English plays of ${corpus.replace(/.*\/shared\//, '../shared/')}, ${draws} draws each: ${tally.doubtful} read with a square in doubt — held ${tally.held} (${pct(tally.held)}), taken right ${tally.right} (${pct(tally.right)}), taken wrong ${tally.wrong} (${pct(tally.wrong)})${tally.missing ? `; ${tally.missing} tiles of letters no frame shows, read surely` : ''} (${((performance.now() - t1) / 1000).toFixed(1)} s)`,
);
if (listing) for (const line of wrongPlays) console.log(line);
console.log(runtimeLine());
