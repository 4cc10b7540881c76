/**
 * `npm run bench:vision`: median milliseconds per photo, split into decode, locate and classify, over the rendered
 * 1000×1000 fixture photos, on one thread (sharp's concurrency 1, onnxruntime with one intra-op thread); then the
 * same for one of them enlarged to a phone camera's 4032×3024, and the three parts of classify on their own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { classifyCells } from './classify.ts';
import { DECODE_SIDE } from './decode.ts';
import { decodeImage, loadModel, recognize } from './index.ts';
import { cellCrops, warpBoard } from './warp.ts';

sharp.concurrency(1);
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
const line = (s: Stages) =>
  `decode ${median(s.decode).toFixed(1)}, locate ${median(s.locate).toFixed(1)}, ` +
  `classify ${median(s.classify).toFixed(1)} (warp, crops, inference, reading), total ${median(s.total).toFixed(1)}`;
const meta = await sharp(photos[0]!).metadata();
console.log(
  `${photos.length} photos of ${meta.width}×${meta.height}, ${rounds} rounds, one thread; ${cpus()[0]?.model ?? 'cpu'}`,
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
const parts = { warp: [] as number[], crops: [] as number[], inference: [] as number[] };
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
    parts.warp.push(t1 - t0);
    parts.crops.push(t2 - t1);
    parts.inference.push(t3 - t2);
  }
}
console.log(
  `median ms inside classify: warp ${median(parts.warp).toFixed(1)}, 225 crops ${median(parts.crops).toFixed(1)}, ` +
    `inference ${median(parts.inference).toFixed(1)} (one thread)`,
);
