/**
 * `npm run bench:vision [-- --game gameNN]`: median milliseconds per photo, split into decode, locate and classify,
 * over the rendered 1000×1000 fixture photos, on one thread (sharp's concurrency 1, onnxruntime with one intra-op
 * thread); then the same for one of them enlarged to a phone camera's 4032×3024, and the three parts of classify on
 * their own.
 *
 * Then the real photos of one scrabscrap-de game (../shared/realdata, beside the repository; game01 unless
 * `--game`), each line beside sharp's plain decode of the same photos to raw pixels, timed in the same loop, and the
 * ratio of the two (targets: a steady camera ≤ 2× the decode, a cold read ≤ 4×): read cold with `recognize`; in move
 * order through one `Camera` (a steady camera, each photo once); through a `Camera` with each photo sent three times
 * in a row (a still camera between turns); one photo enlarged to 4032×3024, cold; and the throughput of one process
 * reading four cameras at once (game01–game04 interleaved frame by frame, each game its own `Camera`, one frame at a
 * time); and the first frame after moves were taken back (each game's first photo again, after its eighth, through
 * the same steady camera), with the grid's lines asked whether it moved and, in the same loop, with the grid looked for
 * again instead. `REAL_ROUNDS` (default 3) rounds over the game's photos, `ROUNDS` (default 8) over the fixtures and the
 * enlarged photos. Without ../shared/realdata the lines on real photos are skipped with a notice. Before the real
 * photos, five rendered seat views whose first grid is in doubt, read cold: the other grids are read too.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { runtimeLine } from '../server/cli/node-flags.ts';
import { tileSets } from '../server/engine/index.ts';
import { Camera, type ReadPath } from './camera.ts';
import { classifyCells } from './classify.ts';
import { DECODE_SIDE } from './decode.ts';
import { decodeImage, loadModel, recognize } from './index.ts';
import { cellCrops, warpBoard } from './warp.ts';

sharp.concurrency(1);
const realdata = fileURLToPath(new URL('../../shared/realdata/scrabscrap-de/', import.meta.url));
const gameArg = process.argv.indexOf('--game');
const game = gameArg >= 0 ? (process.argv[gameArg + 1] ?? '') : 'game01';
if (existsSync(realdata) && !existsSync(join(realdata, game, 'image-1.jpg'))) {
  console.error(`--game: no photos of a game in ${join(realdata, game)} (give --game game01 … game07)`);
  process.exit(1);
}
const dir = fileURLToPath(new URL('../fixtures/photos/', import.meta.url));
const photos = readdirSync(dir)
  .filter((f) => f.endsWith('.jpg'))
  .map((f) => readFileSync(join(dir, f)));
const model = await loadModel();
for (const p of photos) await recognize(p); // warm up: OpenCV, the model, the JIT

const rounds = Number(process.env.ROUNDS ?? 8);
type Stages = { decode: number[]; locate: number[]; classify: number[]; total: number[] };
const stages = (): Stages => ({ decode: [], locate: [], classify: [], total: [] });
const record = (into: Stages, ms: Record<keyof Stages, number>) => {
  for (const k of Object.keys(into) as (keyof Stages)[]) into[k].push(ms[k]);
};
const cold = stages();
const steady = stages();
const hints = await Promise.all(photos.map(async (p) => (await recognize(p)).corners));
for (let i = 0; i < rounds; i++) {
  for (const [j, p] of photos.entries()) {
    for (const [into, options] of [
      [cold, {}],
      [steady, { hint: hints[j]! }],
    ] as const)
      record(into, (await recognize(p, options)).ms);
  }
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
const line = (s: Stages) =>
  `decode ${median(s.decode).toFixed(1)}, locate ${median(s.locate).toFixed(1)}, ` +
  `classify ${median(s.classify).toFixed(1)} (warp, crops, inference, reading), total ${median(s.total).toFixed(1)}`;
const meta = await sharp(photos[0]!).metadata();
console.log(
  `${photos.length} photos of ${meta.width}×${meta.height}, ${rounds} rounds, one thread; ${cpus()[0]?.model ?? 'cpu'}; ${runtimeLine()}`,
);
console.log(`median ms per photo, searching the whole photo: ${line(cold)}`);
console.log(`median ms per photo, steady camera (last frame's corners as hint): ${line(steady)}`);
const phone = await sharp(photos[0]!).resize(4032, 3024).jpeg({ quality: 90 }).toBuffer();
const large = stages();
await recognize(phone);
for (let i = 0; i < rounds; i++) record(large, (await recognize(phone)).ms);
console.log(
  `median ms per photo, a 4032×3024 phone photo (decoded at most ${DECODE_SIDE} px a side): ${line(large)}`,
);
// Inside classify, on the 1000×1000 photos (decoded as they are, so the corners found are the decoded pixels'):
// straightening the board, cutting the 225 crops, and the model's one batch.
// With a quick copy of the model (models/cells.json's `quick`), the inference is the copy's batch and the model's
// for the cells the copy is unsure of; the model alone is timed beside it.
const alone = { ...model, quick: undefined };
const parts = {
  warp: [] as number[],
  crops: [] as number[],
  inference: [] as number[],
  alone: [] as number[],
};
const decoded = await Promise.all(photos.map((p) => decodeImage(p)));
for (let i = 0; i < rounds; i++) {
  for (const [j, image] of decoded.entries()) {
    const t0 = performance.now();
    const board = warpBoard(image, hints[j]!);
    const t1 = performance.now();
    const crops = cellCrops(board, model.size, model.margin);
    const t2 = performance.now();
    await classifyCells(model, crops);
    const t3 = performance.now();
    await classifyCells(alone, crops);
    parts.warp.push(t1 - t0);
    parts.crops.push(t2 - t1);
    parts.inference.push(t3 - t2);
    parts.alone.push(performance.now() - t3);
  }
}
console.log(
  `median ms inside classify: warp ${median(parts.warp).toFixed(1)}, 225 crops ${median(parts.crops).toFixed(1)}, ` +
    `inference ${median(parts.inference).toFixed(1)} (one thread` +
    (model.quick ? `; the quick copy first: the model alone ${median(parts.alone).toFixed(1)})` : ')'),
);

// Photos read cold whose first grid is in doubt (rendered seat views): the grid moved a square where the layout shows
// it (view 27, since session 45) or the other grids the closer search found are read too (recognize.ts readFrame),
// taken or not; what that costs a frame, beside its decode.
{
  const inDoubt = [
    'seat-border/move-19.jpg',
    'seat-planks/move-16.jpg',
    'seat-lines-off/move-24.jpg',
    'seat-game-62/move-21.jpg',
    'seat/65-75/27_65-75deg_modern.jpg',
  ].map((f) => ({
    name: f,
    bytes: readFileSync(fileURLToPath(new URL(`../fixtures/${f}`, import.meta.url))),
  }));
  const parts: string[] = [];
  for (const { name, bytes } of inDoubt) {
    const totals: number[] = [];
    let doubt = false;
    for (let i = 0; i < Math.min(rounds, 3); i++) {
      const reading = await recognize(bytes);
      totals.push(reading.ms.total);
      doubt = reading.gridDoubt !== undefined;
    }
    parts.push(`${name} ${median(totals).toFixed(0)} (${doubt ? 'in doubt' : 'read through another grid'})`);
  }
  console.log(`median ms, photos whose first grid is in doubt, read cold: ${parts.join('; ')}`);
}

// The real photos: a mounted camera over a German game, one photo per move.
if (!existsSync(realdata))
  console.log(`NOTICE: ${realdata} is missing: the lines on real photos are skipped`);
else await realPhotos(game);

/** A game's photos in move order (image-2 before image-10). */
function gamePhotos(name: string): Buffer[] {
  const folder = join(realdata, name);
  return readdirSync(folder)
    .filter((f) => f.endsWith('.jpg'))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .map((f) => readFileSync(join(folder, f)));
}

async function realPhotos(name: string) {
  const letters = tileSets.de.letters.map(([l]) => l).join('');
  const real = gamePhotos(name);
  const realRounds = Number(process.env.REAL_ROUNDS ?? 3);
  /** sharp's plain decode of a photo to raw pixels, in ms: what the pipeline is measured against. */
  const plainDecode = async (bytes: Buffer) => {
    const t0 = performance.now();
    await sharp(bytes).raw().toBuffer();
    return performance.now() - t0;
  };
  // Warm up on this game: the German letters, the camera's ways of reading.
  for (const p of real.slice(0, 4)) await recognize(p, { letters });
  const warm = new Camera({ letters });
  for (const p of real.slice(0, 6)) for (let k = 0; k < 2; k++) await warm.read(p);
  for (const p of real.slice(0, 4)) await plainDecode(p);

  const paths = (): Record<ReadPath, number> => ({ search: 0, hint: 0, still: 0, changed: 0 });
  const ratio = (s: Stages, decodes: number[], target?: { kind: string; most: number }) => {
    const r = median(s.total) / median(decodes);
    const verdict = target
      ? ` (${target.kind} target ≤ ${target.most}×: ${r <= target.most ? 'met' : 'MISSED'})`
      : '';
    return `; plain decode ${median(decodes).toFixed(1)} ms, total ${r.toFixed(1)}× decode${verdict}`;
  };
  const pathLine = (p: Record<ReadPath, number>) =>
    `paths: search ${p.search}, hint ${p.hint}, still ${p.still}, changed ${p.changed}`;
  const size = await sharp(real[0]!).metadata();
  console.log(
    `real photos: scrabscrap-de/${name}, ${real.length} photos of ${size.width}×${size.height}, ${realRounds} rounds, one thread`,
  );

  // Cold: every photo read on its own, no hint.
  const cold = stages();
  const coldDecodes: number[] = [];
  for (let i = 0; i < realRounds; i++)
    for (const p of real) {
      coldDecodes.push(await plainDecode(p));
      record(cold, (await recognize(p, { letters })).ms);
    }
  console.log(`  cold, no hint: ${line(cold)}${ratio(cold, coldDecodes, { kind: 'cold', most: 4 })}`);

  // A steady camera: one Camera, each photo once in move order (a fresh Camera each round).
  for (const [label, repeats] of [
    ['steady camera, each photo once in move order', 1],
    ['still camera, each photo 3 times in a row', 3],
  ] as const) {
    const s = stages();
    const decodes: number[] = [];
    const taken = paths();
    for (let i = 0; i < realRounds; i++) {
      const camera = new Camera({ letters });
      for (const p of real)
        for (let k = 0; k < repeats; k++) {
          decodes.push(await plainDecode(p));
          const reading = await camera.read(p);
          taken[reading.path]++;
          record(s, reading.ms);
        }
    }
    console.log(
      `  ${label}: ${line(s)}${ratio(s, decodes, { kind: 'steady', most: 2 })}; ${pathLine(taken)} (${realRounds} rounds)`,
    );
  }

  // Moves taken back: a steady camera that has seen a game's first eight photos sees its first again. The board
  // differs in every square played since (and the light may have changed): many squares changed, on a grid that
  // has not moved. Each game of the set, with the grid's lines asked first and with the grid looked for again.
  const takenBack = { lines: stages(), search: stages() };
  const takenPaths = { lines: paths(), search: paths() };
  const takenCells = { lines: [] as number[], search: [] as number[] };
  const byLines = { lines: 0, search: 0 };
  const allGames = readdirSync(realdata)
    .filter((g) => existsSync(join(realdata, g, 'image-1.jpg')))
    .sort();
  for (let i = 0; i < realRounds; i++)
    for (const g of allGames) {
      const first = gamePhotos(g).slice(0, 8);
      for (const check of ['lines', 'search'] as const) {
        const camera = new Camera({ letters, gridCheck: check });
        for (const p of first) await camera.read(p);
        const again = await camera.read(first[0]!);
        record(takenBack[check], again.ms);
        takenPaths[check][again.path]++;
        takenCells[check].push(again.cellsRead);
        if (check === 'lines' && again.gridBy) byLines[again.gridBy]++;
      }
    }
  for (const check of ['lines', 'search'] as const)
    console.log(
      `  first frame after 8 moves taken back (${allGames.length} games, ${realRounds} rounds), grid ${check === 'lines' ? 'checked by its lines' : 'looked for again'}: ` +
        `${line(takenBack[check])}; mean total ${mean(takenBack[check].total).toFixed(1)} ms, locate ${mean(takenBack[check].locate).toFixed(1)} ms; median ${median(takenCells[check])} squares read; ${pathLine(takenPaths[check])}` +
        (check === 'lines'
          ? `; many squares changed: grid kept by its lines ${byLines.lines}, looked for again ${byLines.search}`
          : ''),
    );

  // A phone's photo of the same board: one of the game's photos enlarged to 4032×3024, read cold. Enlarged alike
  // both ways (a table's colour beside it): stretched, its squares would be a third wider than tall, no board a camera
  // could see (pose.ts, squareMisfit).
  const phone = await sharp(real[Math.floor(real.length / 2)]!)
    .resize(4032, 3024, { fit: 'contain', background: { r: 120, g: 100, b: 80 } })
    .jpeg({ quality: 90 })
    .toBuffer();
  await recognize(phone, { letters });
  await plainDecode(phone);
  const large = stages();
  const largeDecodes: number[] = [];
  for (let i = 0; i < rounds; i++) {
    largeDecodes.push(await plainDecode(phone));
    record(large, (await recognize(phone, { letters })).ms);
  }
  console.log(
    `  cold, one photo enlarged to 4032×3024 (decoded at most ${DECODE_SIDE} px a side; the plain decode is full size), ${rounds} rounds: ` +
      `${line(large)}${ratio(large, largeDecodes, { kind: 'cold', most: 4 })}`,
  );

  // Throughput: four cameras at once in one process, their frames interleaved, awaited one at a time.
  const games = ['game01', 'game02', 'game03', 'game04'].filter((g) => existsSync(join(realdata, g)));
  const feeds = games.map((g) => ({ photos: gamePhotos(g), camera: new Camera({ letters }) }));
  const order: { camera: Camera; photo: Buffer }[] = [];
  for (let k = 0; k < Math.max(...feeds.map((f) => f.photos.length)); k++)
    for (const f of feeds) if (k < f.photos.length) order.push({ camera: f.camera, photo: f.photos[k]! });
  const perFrame: number[] = [];
  const taken = paths();
  const t0 = performance.now();
  for (const { camera, photo } of order) {
    const t = performance.now();
    const reading = await camera.read(photo);
    perFrame.push(performance.now() - t);
    taken[reading.path]++;
  }
  const wall = performance.now() - t0;
  const throughputDecodes: number[] = [];
  for (const { photo } of order) throughputDecodes.push(await plainDecode(photo));
  const frameMedian = median(perFrame);
  console.log(
    `  throughput, ${games.length} cameras (${games.join(', ')}) interleaved, ${order.length} frames one at a time: ` +
      `${((order.length / wall) * 1000).toFixed(1)} frames/s; median ${frameMedian.toFixed(1)} ms a frame; ` +
      `plain decode ${median(throughputDecodes).toFixed(1)} ms, ${(frameMedian / median(throughputDecodes)).toFixed(1)}× decode; ${pathLine(taken)}`,
  );
}
