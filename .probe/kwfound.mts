import { readdirSync, readFileSync } from 'node:fs';
import { recognize } from '../vision/index.ts';
const dir = process.argv[2]!;
for (const f of readdirSync(dir).filter((f) => /\.(jpe?g|png)$/i.test(f)).sort()) {
  try {
    const r = await recognize(readFileSync(`${dir}/${f}`), { letters: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', blanks: 2 });
    console.log(f, r.gridDoubt ? 'doubt' : 'ok', JSON.stringify(r.corners.map((p) => p.map(Math.round))));
  } catch (e) { console.log(f, 'ERR', (e as Error).message.slice(0, 60)); }
}
