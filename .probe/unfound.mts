import { readFileSync } from 'node:fs';
import { decodeImage, shrink } from '../vision/decode.ts';
import { otherGrids, WORK, orderCorners } from '../vision/locate.ts';
import { readFrame } from '../vision/recognize.ts';
import { mapCorners, scaleCorners } from '../vision/types.ts';
const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
for (const f of process.argv.slice(2)) {
  const bytes = readFileSync(f);
  const photo = await decodeImage(bytes);
  const work = await shrink(photo, WORK);
  const k = photo.width / work.width;
  const others = otherGrids(work);
  const truth = readFileSync(f.replace(/\.jpg$/, '.txt'), 'utf8').replace(/[a-z]/g, '?').trimEnd().split('\n');
  const out: string[] = [];
  for (const o of others) {
    const corners = mapCorners(orderCorners([...scaleCorners(o.corners, k)]), (p) => p);
    try {
      const st = await readFrame(bytes, { letters, blanks: 2 }, undefined, { photo, since: 0, decoded: 0, corners }, false, true);
      const r = st.reading;
      const uns = new Set(r.unsure.map((s) => s.row * 15 + s.col));
      let wrong = 0, silent = 0;
      for (let i = 0; i < 225; i++) if (r.board[Math.floor(i / 15)]![i % 15] !== truth[Math.floor(i / 15)]![i % 15]) { wrong++; if (!uns.has(i)) silent++; }
      out.push(`${o.score.toFixed(2)} doubt=${r.gridDoubt ? r.gridDoubt.slice(0, 40) : '-'} unsure=${r.unsure.length} wrong=${wrong} silent=${silent}`);
    } catch (e) { out.push(`${o.score.toFixed(2)} ERR ${(e as Error).message.slice(0, 50)}`); }
  }
  console.log(f.split('/').slice(-1)[0], others.length, '|', out.join(' | '));
}
