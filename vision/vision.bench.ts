/**
 * `npm run bench:vision`: median milliseconds per photo, split into decode, locate and classify, over the rendered
 * 1000×1000 fixture photos, on one thread (sharp's concurrency 1, onnxruntime with one intra-op thread).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { loadModel, recognize } from './index.ts';

sharp.concurrency(1);
const dir = fileURLToPath(new URL('../fixtures/photos/', import.meta.url));
const photos = readdirSync(dir)
  .filter((f) => f.endsWith('.jpg'))
  .map((f) => readFileSync(join(dir, f)));
await loadModel();
for (const p of photos) await recognize(p); // warm up: OpenCV, the model, the JIT

const rounds = Number(process.env.ROUNDS ?? 8);
const stages = {
  decode: [] as number[],
  locate: [] as number[],
  classify: [] as number[],
  total: [] as number[],
};
for (let i = 0; i < rounds; i++) {
  for (const p of photos) {
    const { ms } = await recognize(p);
    for (const k of Object.keys(stages) as (keyof typeof stages)[]) stages[k].push(ms[k]);
  }
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
const meta = await sharp(photos[0]!).metadata();
console.log(
  `${photos.length} photos of ${meta.width}×${meta.height}, ${rounds} rounds, one thread; ${cpus()[0]?.model ?? 'cpu'}`,
);
console.log(
  `median ms per photo: decode ${median(stages.decode).toFixed(1)}, locate ${median(stages.locate).toFixed(1)}, ` +
    `classify ${median(stages.classify).toFixed(1)} (warp, 225 crops, inference), total ${median(stages.total).toFixed(1)}`,
);
