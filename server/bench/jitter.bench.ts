/**
 * `npm run bench:jitter [-- --deltas 0,0.02,0.05,0.1,0.25] [--draws N] [--list] [--json]`: how far the readings move
 * when the grid moves by a hair. Every labelled photo of ../shared/realdata's scrabscrap-de and kwwangkw-en/warped
 * (labels corrected by models/label-errata.txt, as the other benches read them: labelled.ts) is read cold, as
 * `tilecam eval` reads it, and then again with the grid's four corners as found, each moved by δ pixels of the photo
 * in a direction drawn at random, `--draws` times per δ (default 4), the rest of the reading as it is. Each draw is
 * seeded by the photo, δ and the draw's number: the same directions every run, whatever else is asked for. δ 0 is the
 * control: the corners given back as found must read exactly as found.
 *
 * Compared square by square with what the photo shows, per set and δ, over all its draws: the turns of a square read
 * right to wrong (and of those, how many are not reported unsure, silent; and how many were reported unsure before
 * and after, asked about either way), of wrong to right, right squares newly reported unsure (a click more) or no
 * longer, the reads whose reading changed at all, and the distinct squares that turned right to wrong in any draw.
 * `--list` names each square that turned. A photo whose board is not found cold is counted and left out.
 *
 * What it is for: any cheaper way to find the grid finds corners that differ from today's by a fraction of a pixel.
 * This bench gives the changes that such a difference makes by chance alone, the floor against which a change to
 * the locator has to be judged. A bench: it exits 0 whatever the figures, 1 when the data is missing or an option is
 * wrong.
 */
import { existsSync } from 'node:fs';
import { type Corners, recognize, VisionError } from '../../vision/index.ts';
import { runtimeLine } from '../cli/node-flags.ts';
import { readingOptionsOf } from '../cli/recognize.ts';
import { squareName } from '../engine/index.ts';
import { labelledPhotos, realdata } from './labelled.ts';

function fail(message: string): never {
  console.error(`bench:jitter: ${message}`);
  process.exit(1);
}

const argv = process.argv.slice(2);
function option(name: string): string | undefined {
  const at = argv.indexOf(name);
  if (at < 0) return undefined;
  const value = argv[at + 1];
  if (value === undefined || value.startsWith('--')) fail(`${name} needs a value`);
  return value;
}
const known = new Set(['--deltas', '--draws', '--json', '--list']);
const unknown = argv.find((a) => a.startsWith('--') && !known.has(a));
if (unknown) fail(`unknown option ${unknown}`);
const json = argv.includes('--json');
const list = argv.includes('--list');
const deltas = (option('--deltas') ?? '0,0.02,0.05,0.1,0.25').split(',').map(Number);
if (deltas.some((d) => !(Number.isFinite(d) && d >= 0 && d <= 5)))
  fail('--deltas: pixels, each from 0 to 5, separated by commas');
const draws = Number(option('--draws') ?? '4');
if (!(Number.isInteger(draws) && draws >= 1 && draws <= 20)) fail('--draws: a whole number from 1 to 20');

const sets = [
  { name: 'scrabscrap-de', dir: realdata('scrabscrap-de'), lang: 'de' },
  { name: 'kwwangkw-en/warped', dir: realdata('kwwangkw-en/warped'), lang: 'en' },
];
for (const s of sets) if (!existsSync(s.dir)) fail(`no data: ${s.dir} is missing`);

/** The directions of one photo's draw at one δ: a generator seeded by the three (FNV-1a of their text, then a
 *  linear congruential generator), so that a run asking for other δs or draws draws the same for these. */
function directions(photo: string, delta: number, draw: number): () => number {
  let seed = 2166136261;
  for (const ch of `${photo}|${delta}|${draw}`) seed = Math.imul(seed ^ ch.charCodeAt(0), 16777619);
  seed &= 0x7fffffff;
  return () => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return seed / 0x80000000;
  };
}

/** A reading refused (no board, corners off the picture): undefined; anything else (no model) stops the bench. */
function noBoard(err: unknown): undefined {
  if (err instanceof VisionError && err.code !== 'no-model') return undefined;
  throw err;
}

interface Tally {
  reads: number;
  refused: number;
  rightToWrong: number;
  rightToWrongSilent: number;
  /** Of them, reported unsure before and after: a person was asked about the square either way. */
  rightToWrongAskedBoth: number;
  wrongToRight: number;
  newlyUnsure: number;
  noLongerUnsure: number;
  readsChanged: number;
  /** Distinct squares (photo and square) that turned right to wrong in any draw. */
  squaresTurnedWrong: Set<string>;
}
const tally = (): Tally => ({
  reads: 0,
  refused: 0,
  rightToWrong: 0,
  rightToWrongSilent: 0,
  rightToWrongAskedBoth: 0,
  wrongToRight: 0,
  newlyUnsure: 0,
  noLongerUnsure: 0,
  readsChanged: 0,
  squaresTurnedWrong: new Set(),
});

const results: {
  set: string;
  photos: number;
  notFound: number;
  wrong: number;
  silent: number;
  byDelta: Map<number, Tally>;
}[] = [];
const started = performance.now();
for (const set of sets) {
  const options = readingOptionsOf(set.lang);
  const byDelta = new Map(deltas.map((d) => [d, tally()]));
  let photos = 0;
  let notFound = 0;
  let wrong = 0;
  let silent = 0;
  for (const { file, photo, truth } of labelledPhotos(set.dir)) {
    photos++;
    // The corners as found, unrounded, in the photo's own pixels (a reading reports them to a tenth of a pixel; a
    // photo over 2000 px a side is decoded smaller).
    let found: Corners | undefined;
    const first = await recognize(photo, {
      ...options,
      inspect: (decoded, corners) => {
        found = corners.map(([x, y]) => [x / decoded.scaleX, y / decoded.scaleY]) as unknown as Corners;
      },
    }).catch(noBoard);
    if (!first || !found) {
      notFound++;
      continue;
    }
    const before = first.board.join('');
    const unsureBefore = new Set(first.unsure.map((s) => s.row * 15 + s.col));
    for (let k = 0; k < 225; k++)
      if (before[k] !== truth[k]) {
        wrong++;
        if (!unsureBefore.has(k)) silent++;
      }
    for (const delta of deltas) {
      const t = byDelta.get(delta)!;
      for (let draw = 0; draw < draws; draw++) {
        const random = directions(`${set.name}/${file}`, delta, draw);
        const moved = found.map(([x, y]) => {
          const angle = 2 * Math.PI * random();
          return [x + delta * Math.cos(angle), y + delta * Math.sin(angle)];
        }) as unknown as Corners;
        t.reads++;
        const again = await recognize(photo, { ...options, corners: moved }).catch(noBoard);
        if (!again) {
          t.refused++;
          continue;
        }
        const after = again.board.join('');
        const unsureAfter = new Set(again.unsure.map((s) => s.row * 15 + s.col));
        let changed = false;
        for (let k = 0; k < 225; k++) {
          const rightBefore = before[k] === truth[k];
          const rightAfter = after[k] === truth[k];
          if (rightBefore && !rightAfter) {
            t.rightToWrong++;
            t.squaresTurnedWrong.add(`${file} ${k}`);
            if (!unsureAfter.has(k)) t.rightToWrongSilent++;
            else if (unsureBefore.has(k)) t.rightToWrongAskedBoth++;
          }
          if (!rightBefore && rightAfter) t.wrongToRight++;
          if (list && rightBefore !== rightAfter)
            console.log(
              `  δ ${delta}, draw ${draw}: ${set.name}/${file.replace(/\.txt$/, '')} ${squareName({ row: Math.floor(k / 15), col: k % 15 })} shows '${truth[k]}': '${before[k]}'${unsureBefore.has(k) ? ' (unsure)' : ''} → '${after[k]}'${unsureAfter.has(k) ? ' (unsure)' : ''}`,
            );
          if (rightBefore && rightAfter && unsureAfter.has(k) !== unsureBefore.has(k)) {
            if (unsureAfter.has(k)) t.newlyUnsure++;
            else t.noLongerUnsure++;
          }
          if (after[k] !== before[k] || unsureAfter.has(k) !== unsureBefore.has(k)) changed = true;
        }
        if (changed) t.readsChanged++;
      }
    }
  }
  results.push({ set: set.name, photos, notFound, wrong, silent, byDelta });
}

const counts = (t: Tally) => {
  const { squaresTurnedWrong, ...rest } = t;
  return { ...rest, squaresTurnedWrong: squaresTurnedWrong.size };
};
if (json) {
  console.log(
    JSON.stringify(
      {
        draws,
        results: results.map((r) => ({
          ...r,
          byDelta: Object.fromEntries([...r.byDelta].map(([d, t]) => [String(d), counts(t)])),
        })),
      },
      null,
      2,
    ),
  );
} else {
  console.log(
    `every labelled photo read cold, then with its grid's corners moved by δ px (${draws} seeded random directions each); against what the photos show (models/label-errata.txt); ${runtimeLine()}`,
  );
  for (const r of results) {
    console.log(
      `${r.set}: ${r.photos} photos (${r.notFound} without a board found, left out); read cold: ${r.wrong} squares wrong, ${r.silent} of them silent`,
    );
    for (const [delta, t] of r.byDelta)
      console.log(
        `  δ ${delta} px, ${t.reads} reads${t.refused ? ` (${t.refused} refused)` : ''}: right → wrong ${t.rightToWrong} (${t.rightToWrongSilent} silent, ${t.rightToWrongAskedBoth} unsure before and after; ${t.squaresTurnedWrong.size} distinct squares), wrong → right ${t.wrongToRight}; right squares newly unsure ${t.newlyUnsure}, no longer unsure ${t.noLongerUnsure}; readings changed ${t.readsChanged} of ${t.reads}`,
      );
  }
  console.log(`${((performance.now() - started) / 1000).toFixed(0)} s`);
}
