/**
 * `npm run bench:compare -- OTHER [--game gameNN] [--rounds N] [--steady]`: this checkout's vision against another
 * checkout's (OTHER: the path of its working tree, e.g. made by `git worktree add /tmp/base REV` with a `node_modules`
 * link), both loaded into this one process and given the same photos alternately, photo by photo, the order swapped
 * every round. A cold read of each of a scrabscrap-de game's photos (../shared/realdata, beside the repository;
 * game01 unless `--game`), as `recognize` reads it with the German letters; with `--steady`, the photos in move order
 * through one `Camera` per checkout (a steady camera, a fresh one each round), frame by frame. Medians per checkout
 * and the median of the pairs' ratios (this / other). Made for changes of a few per cent, which separate runs of `npm run bench:vision` on a VM whose speed wanders
 * cannot tell apart. Also says whether the two read every photo the same (the boards and corners).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { runtimeLine } from '../server/cli/node-flags.ts';
import { tileSets } from '../server/engine/index.ts';
import type { BoardReading } from './types.ts';

type Vision = {
  loadModel: () => Promise<unknown>;
  recognize: (bytes: Uint8Array, options?: { letters?: string }) => Promise<BoardReading>;
  Camera: new (options: { letters?: string }) => { read: (bytes: Uint8Array) => Promise<BoardReading> };
};

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = argv.indexOf(name);
  return at >= 0 ? (argv[at + 1] ?? '') : fallback;
};
const other = argv[0] && !argv[0].startsWith('--') ? resolve(argv[0]) : '';
const here = fileURLToPath(new URL('..', import.meta.url));
const game = option('--game', 'game01');
const rounds = Number(option('--rounds', '4'));
const steady = argv.includes('--steady');
const known = new Set(['--game', '--rounds', '--steady']);
const unknown = argv.filter((a) => a.startsWith('--') && !known.has(a));
const dir = fileURLToPath(new URL(`../../shared/realdata/scrabscrap-de/${game}/`, import.meta.url));
const fail = (message: string) => {
  console.error(`bench:compare: ${message}`);
  process.exit(1);
};
if (!other)
  fail('give the other checkout: npm run bench:compare -- PATH [--game gameNN] [--rounds N] [--steady]');
if (!existsSync(join(other, 'vision/index.ts')))
  fail(`${other} holds no vision/index.ts: not a tilecam checkout`);
if (resolve(other) === resolve(here)) fail('the other checkout is this one');
if (!/^game\d\d$/.test(game) || !existsSync(join(dir, 'image-1.jpg'))) fail(`no photos of a game in ${dir}`);
if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20) fail('--rounds: a whole number from 1 to 20');
if (unknown.length > 0) fail(`unknown option ${unknown[0]}`);

sharp.concurrency(1);
// The German set's letters, as the service reads a German game (and as `npm run bench:vision` reads these photos).
const letters = tileSets.de.letters.map(([l]) => l).join('');
const photos = readdirSync(dir)
  .filter((f) => /^image-\d+\.jpg$/.test(f))
  .sort((a, b) => Number(a.slice(6, -4)) - Number(b.slice(6, -4)))
  .map((f) => readFileSync(join(dir, f)));
const load = async (root: string) => (await import(join(root, 'vision/index.ts'))) as Vision;
const sides = { this: await load(here), other: await load(other) };
for (const v of Object.values(sides)) {
  await v.loadModel();
  for (const p of photos.slice(0, 4)) await v.recognize(p, { letters }); // warm up: OpenCV, the model, the JIT
}

type Stage = 'decode' | 'locate' | 'classify' | 'total';
const stages: Stage[] = ['decode', 'locate', 'classify', 'total'];
const ms = { this: new Map<Stage, number[]>(), other: new Map<Stage, number[]>() };
const ratios: number[] = [];
let differ = 0;
for (let round = 0; round < rounds; round++) {
  // A steady camera per checkout, fresh each round: every frame after the first is read on the last one's grid.
  const cameras = steady
    ? { this: new sides.this.Camera({ letters }), other: new sides.other.Camera({ letters }) }
    : undefined;
  for (const photo of photos) {
    const order = round % 2 === 0 ? (['this', 'other'] as const) : (['other', 'this'] as const);
    const read: Partial<Record<'this' | 'other', BoardReading>> = {};
    for (const side of order) {
      const reading = cameras
        ? await cameras[side].read(photo)
        : await sides[side].recognize(photo, { letters });
      read[side] = reading;
      for (const s of stages) ms[side].set(s, [...(ms[side].get(s) ?? []), reading.ms[s]]);
    }
    ratios.push(read.this!.ms.total / read.other!.ms.total);
    const same = (r: BoardReading) => JSON.stringify([r.board, r.corners]);
    if (round === 0 && same(read.this!) !== same(read.other!)) differ++;
  }
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
console.log(
  `scrabscrap-de/${game}: ${photos.length} photos read ${steady ? 'as a steady camera, in move order' : 'cold'}, ${rounds} rounds, alternated, one thread; ${runtimeLine()}`,
);
for (const side of ['this', 'other'] as const)
  console.log(
    `  ${side === 'this' ? 'this checkout ' : `${other}`}: ${stages.map((s) => `${s} ${median(ms[side].get(s)!).toFixed(1)}`).join(', ')} ms (medians)`,
  );
console.log(
  `  this / other, the whole read: ${median(ratios).toFixed(3)} (median of the ${ratios.length} pairs)`,
);
console.log(`  photos read differently (board or corners): ${differ} of ${photos.length}`);
