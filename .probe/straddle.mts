import { readFile } from 'node:fs/promises';
import { decodeImage } from '../vision/decode.ts';
import { locateGrid } from '../vision/recognize.ts';
import { liftedCorners, TILE_HEIGHT } from '../vision/pose.ts';
import { warpBoard, CELL, MARGIN } from '../vision/warp.ts';
const [file] = process.argv.slice(2);
const photo = await decodeImage(await readFile(file!));
const c = await locateGrid(photo);
const faces = liftedCorners(c, photo, TILE_HEIGHT);
const w = warpBoard(photo, faces);
const L = (x: number, y: number) => { const i = (y * w.width + x) * 3; return 0.3 * w.data[i]! + 0.59 * w.data[i + 1]! + 0.11 * w.data[i + 2]!; };
// profile along axis a (0: along y, line horizontal) of a strip
function score(r: number, col: number, vertical: boolean) {
  const x0 = MARGIN + col * CELL, y0 = MARGIN + r * CELL;
  const strip = (lo: number, hi: number) => { const P: number[] = []; for (let t = 0; t < CELL; t++) { let s = 0; for (let u = lo; u < hi; u++) s += vertical ? L(x0 + u, y0 + t) : L(x0 + t, y0 + u); P.push(s / (hi - lo)); } return P; };
  const a = strip(2, 8), b = strip(32, 38);
  const best = (P: number[]) => { let m = 0; for (let t = 12; t <= 28; t++) { const step = Math.abs(P[t + 3]! - P[t - 3]!); const dip = (P[t - 4]! + P[t + 4]!) / 2 - P[t]!; m = Math.max(m, step, dip); } return m; };
  return Math.min(best(a), best(b));
}
const rows: string[] = [];
for (let r = 0; r < 15; r++) { const line: string[] = []; for (let col = 0; col < 15; col++) { const s = Math.max(score(r, col, true), score(r, col, false)); line.push(String(Math.round(s)).padStart(3)); } rows.push(line.join(' ')); }
console.log(rows.join('\n'));
