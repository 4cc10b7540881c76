import { readdirSync, readFileSync } from 'node:fs';
import { decodeImage } from '../vision/decode.ts';
import { locateGrid } from '../vision/recognize.ts';
import { warpBoard } from '../vision/warp.ts';
import { opencv, withMats } from '../vision/cv.ts';
const dirs = process.argv.slice(2);
const { cv } = opencv();
for (const dir of dirs) for (const f of readdirSync(dir).filter((f) => /\.(jpe?g|png)$/i.test(f)).sort()) {
  try {
    const photo = await decodeImage(readFileSync(`${dir}/${f}`));
    const c = await locateGrid(photo);
    const w = warpBoard(photo, c);
    const v = withMats((track) => {
      const m = track(new cv.Mat(w.height, w.width, cv.CV_8UC3)); m.data.set(w.data);
      const g = track(new cv.Mat()); cv.cvtColor(m, g, cv.COLOR_RGB2GRAY);
      const lap = track(new cv.Mat()); cv.Laplacian(g, lap, cv.CV_64F);
      const mean = track(new cv.Mat()), sd = track(new cv.Mat()); cv.meanStdDev(lap, mean, sd);
      const m2 = track(new cv.Mat()), s2 = track(new cv.Mat()); cv.meanStdDev(g, m2, s2);
      return [sd.data64F[0]! ** 2, s2.data64F[0]!];
    });
    console.log(`${dir.split('/').slice(-2).join('/')}/${f}`, v[0]!.toFixed(0), v[1]!.toFixed(1), (v[0]! / v[1]! ** 2).toFixed(3));
  } catch (e) { console.log(f, 'ERR'); }
}
