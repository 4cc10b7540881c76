/**
 * `npm run bench:jitter [-- --deltas 0.02,0.05,0.1,0.25] [--draws N] [--list] [--json]`: how far the readings move when the
 * grid moves by a hair. Every labelled photo of ../shared/realdata's scrabscrap-de and kwwangkw-en/warped is read
 * cold, as `tilecam eval` reads it, and then again with the grid's four corners as found, each moved by δ pixels of
 * the photo in a direction drawn at random (seeded: the same draws every run), `--draws` times per δ (default 2),
 * the rest of the reading as it is. Compared square by square with what the photo shows (the labels with
 * models/label-errata.txt applied), per set and δ: squares read right that turn wrong (and of those, how many are
 * not reported unsure: silent, and how many were reported unsure before and after: asked about either way), squares read wrong that turn right, right squares newly reported unsure (a click
 * more) or no longer, and the photos whose reading changed at all. `--list` names each square that turned.
 *
 * What it is for: any cheaper way to find the grid finds corners that differ from today's by a fraction of a
 * pixel. This bench gives the changes that such a difference makes by chance alone, the floor against which a change
 * to the locator has to be judged. A bench: it exits 0 whatever the figures, 1 when the data is missing or an option
 * is wrong.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Corners, type RgbImage, recognize, VisionError } from '../../vision/index.ts';
import { correctLabel, type Erratum, errataFor, parseErrata } from '../cli/errata.ts';
import { runtimeLine } from '../cli/node-flags.ts';
import { readingOptionsOf } from '../cli/recognize.ts';
import { parseBoard, squareName } from '../engine/index.ts';

const argv = process.argv.slice(2);
const fail = (message: string): never => {
  console.error(`bench:jitter: ${message}`);
  process.exit(1);
};
const option = (name: string) => {
  const at = argv.indexOf(name);
  if (at < 0) return undefined;
  const value = argv[at + 1];
  if (value === undefined || value.startsWith('--')) fail(`${name} needs a value`);
  return value;
};
const known = new Set(['--deltas', '--draws', '--json', '--list']);
const unknown = argv.find((a) => a.startsWith('--') && !known.has(a));
if (unknown) fail(`unknown option ${unknown}`);
const json = argv.includes('--json');
const list = argv.includes('--list');
const deltas = (option('--deltas') ?? '0.02,0.05,0.1,0.25').split(',').map(Number);
if (deltas.some((d) => !(Number.isFinite(d) && d > 0 && d <= 5)))
  fail('--deltas: pixels, each above 0 and at most 5, separated by commas');
const draws = Number(option('--draws') ?? '2');
if (!(Number.isInteger(draws) && draws >= 1 && draws <= 10)) fail('--draws: a whole number from 1 to 10');

const root = fileURLToPath(new URL('../../../shared/realdata/', import.meta.url));
const sets = [
  { name: 'scrabscrap-de', dir: join(root, 'scrabscrap-de'), lang: 'de' },
  { name: 'kwwangkw-en/warped', dir: join(root, 'kwwangkw-en/warped'), lang: 'en' },
];
for (const s of sets) if (!existsSync(s.dir)) fail(`no data: ${s.dir} is missing`);
const errataFile = fileURLToPath(new URL('../../models/label-errata.txt', import.meta.url));
const parsed = parseErrata(readFileSync(errataFile, 'utf8'));
if (!parsed.ok) fail(`${errataFile}: ${parsed.message}`);
const errata: readonly Erratum[] = parsed.ok ? parsed.errata : [];

/** Labelled photos below `dir` (NAME.jpg beside NAME.txt), in a fixed order. */
function labelled(dir: string): { image: string; label: string }[] {
  const out: { image: string; label: string }[] = [];
  for (const f of readdirSync(dir).sort()) {
    const path = join(dir, f);
    if (statSync(path).isDirectory()) out.push(...labelled(path));
    else if (/\.(jpe?g|png|webp)$/i.test(f)) {
      const label = path.replace(/\.[^.]+$/, '.txt');
      if (existsSync(label)) out.push({ image: path, label });
    }
  }
  return out;
}

/** A photo's reading refused (no board, corners off the picture): undefined; anything else (no model) stops the bench. */
const noBoard = (err: unknown): undefined => {
  if (err instanceof VisionError && err.code !== 'no-model') return undefined;
  throw err;
};

/** A linear congruential generator: the same directions every run. */
let seed = 20261127;
const random = () => {
  seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
  return seed / 0x80000000;
};

interface Tally {
  photos: number;
  squares: number;
  rightToWrong: number;
  rightToWrongSilent: number;
  /** Of them, reported unsure before and after: a person was asked about the square either way. */
  rightToWrongAskedBoth: number;
  wrongToRight: number;
  newlyUnsure: number;
  noLongerUnsure: number;
  photosChanged: number;
  refused: number;
}
const tally = (): Tally => ({
  photos: 0,
  squares: 0,
  rightToWrong: 0,
  rightToWrongSilent: 0,
  rightToWrongAskedBoth: 0,
  wrongToRight: 0,
  newlyUnsure: 0,
  noLongerUnsure: 0,
  photosChanged: 0,
  refused: 0,
});

const results: {
  set: string;
  photos: number;
  wrong: number;
  silent: number;
  byDelta: Record<string, Tally>;
}[] = [];
const started = performance.now();
for (const set of sets) {
  const options = readingOptionsOf(set.lang);
  const photos = labelled(set.dir);
  const byDelta: Record<string, Tally> = Object.fromEntries(deltas.map((d) => [String(d), tally()]));
  let wrong = 0;
  let silent = 0;
  for (const { image, label } of photos) {
    const board = parseBoard(readFileSync(label, 'utf8'));
    if (!board.ok) fail(`${label}: ${board.message}`);
    const fixed = board.ok ? correctLabel(board.board.cells, errataFor(errata, label), label) : undefined;
    if (!fixed?.ok) fail(fixed ? fixed.message : label);
    const truth = fixed?.ok ? fixed.cells : [];
    const bytes = readFileSync(image);
    // The corners as found, unrounded, in the photo's own pixels (a reading reports them to a tenth of a pixel).
    let found: Corners | undefined;
    const first = await recognize(bytes, {
      ...options,
      // The decoded photo says how it was scaled (a photo over 2000 px a side is decoded smaller).
      inspect: (photo: RgbImage & { scaleX?: number; scaleY?: number }, corners: Corners) => {
        found = corners.map(([x, y]) => [
          x / (photo.scaleX ?? 1),
          y / (photo.scaleY ?? 1),
        ]) as unknown as Corners;
      },
    }).catch(noBoard);
    if (!first || !found) continue; // no board found: nothing to move
    const before = first.board.join('');
    const unsureBefore = new Set(first.unsure.map((s) => s.row * 15 + s.col));
    for (let k = 0; k < 225; k++)
      if (before[k] !== truth[k]) {
        wrong++;
        if (!unsureBefore.has(k)) silent++;
      }
    for (const delta of deltas) {
      const t = byDelta[String(delta)]!;
      for (let n = 0; n < draws; n++) {
        const moved = found.map(([x, y]) => {
          const angle = 2 * Math.PI * random();
          return [x + delta * Math.cos(angle), y + delta * Math.sin(angle)];
        }) as unknown as Corners;
        t.photos++;
        const again = await recognize(bytes, { ...options, corners: moved }).catch(noBoard);
        if (!again) {
          t.refused++;
          continue;
        }
        t.squares += 225;
        const after = again.board.join('');
        const unsureAfter = new Set(again.unsure.map((s) => s.row * 15 + s.col));
        let changed = false;
        for (let k = 0; k < 225; k++) {
          const rightBefore = before[k] === truth[k];
          const rightAfter = after[k] === truth[k];
          if (rightBefore && !rightAfter) {
            t.rightToWrong++;
            if (!unsureAfter.has(k)) t.rightToWrongSilent++;
            else if (unsureBefore.has(k)) t.rightToWrongAskedBoth++;
          }
          if (!rightBefore && rightAfter) t.wrongToRight++;
          if (list && rightBefore !== rightAfter)
            console.log(
              `  δ ${delta}: ${relative(root, image)} ${squareName({ row: Math.floor(k / 15), col: k % 15 })} shows '${truth[k]}': '${before[k]}'${unsureBefore.has(k) ? ' (unsure)' : ''} → '${after[k]}'${unsureAfter.has(k) ? ' (unsure)' : ''}`,
            );
          if (rightBefore && rightAfter && unsureAfter.has(k) !== unsureBefore.has(k)) {
            if (unsureAfter.has(k)) t.newlyUnsure++;
            else t.noLongerUnsure++;
          }
          if (after[k] !== before[k] || unsureAfter.has(k) !== unsureBefore.has(k)) changed = true;
        }
        if (changed) t.photosChanged++;
      }
    }
  }
  results.push({ set: set.name, photos: photos.length, wrong, silent, byDelta });
}

if (json) {
  console.log(JSON.stringify({ draws, deltas, results }, null, 2));
} else {
  console.log(
    `every labelled photo read cold, then with its grid's corners moved by δ px (${draws} random directions each); against what the photos show (models/label-errata.txt); ${runtimeLine()}`,
  );
  for (const r of results) {
    console.log(
      `${r.set}: ${r.photos} photos, read cold: ${r.wrong} squares wrong, ${r.silent} of them silent`,
    );
    for (const [delta, t] of Object.entries(r.byDelta))
      console.log(
        `  δ ${delta} px, ${t.photos} reads${t.refused ? ` (${t.refused} refused)` : ''}: right → wrong ${t.rightToWrong} (${t.rightToWrongSilent} silent, ${t.rightToWrongAskedBoth} unsure before and after), wrong → right ${t.wrongToRight}; right squares newly unsure ${t.newlyUnsure}, no longer unsure ${t.noLongerUnsure}; readings changed ${t.photosChanged} of ${t.photos}`,
      );
  }
  console.log(`${((performance.now() - started) / 1000).toFixed(0)} s`);
}
