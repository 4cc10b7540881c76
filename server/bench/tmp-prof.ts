import { readFileSync, readdirSync } from 'node:fs';
import { opencv, withMats } from '../../vision/cv.ts';
import { candidateQuads, gridInQuad } from '../../vision/grid-search.ts';
import { refinePasses, symmetricShift } from '../../vision/refine.ts';
import { decodeImage } from '../../vision/decode.ts';
const dir = '/work/shared/realdata/scrabscrap-de/game01/';
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.jpg'))
  .slice(0, 12);
const { cv } = opencv();
const T: Record<string, number[]> = {};
const t = (k: string, f: () => any) => {
  const a = performance.now();
  const r = f();
  (T[k] ??= []).push(performance.now() - a);
  return r;
};
for (let round = 0; round < 3; round++)
  for (const f of files) {
    const rgb: any = await decodeImage(readFileSync(dir + f));
    withMats((track) => {
      const { colour, gray, pad } = t('work', () => {
        const src = track(new cv.Mat(rgb.height, rgb.width, cv.CV_8UC3));
        src.data.set(rgb.data);
        const scale = Math.min(1, 640 / Math.max(rgb.width, rgb.height));
        const sized = track(new cv.Mat());
        cv.resize(
          src,
          sized,
          new cv.Size(Math.round(rgb.width * scale), Math.round(rgb.height * scale)),
          0,
          0,
          cv.INTER_AREA,
        );
        const pad = Math.round(0.03 * Math.max(sized.cols, sized.rows));
        const colour = track(new cv.Mat());
        cv.copyMakeBorder(sized, colour, pad, pad, pad, pad, cv.BORDER_CONSTANT, new cv.Scalar(0, 0, 0, 255));
        const gray = track(new cv.Mat());
        cv.cvtColor(colour, gray, cv.COLOR_RGB2GRAY);
        return { colour, gray, pad };
      });
      const small = track(new cv.Mat());
      cv.resize(
        gray,
        small,
        new cv.Size(Math.round(gray.cols * 0.5), Math.round(gray.rows * 0.5)),
        0,
        0,
        cv.INTER_AREA,
      );
      const quads = t('quads', () => candidateQuads(cv, small, track, Math.round(pad * 0.5)));
      (T.nquads ??= []).push(quads.length);
      let best: any;
      t('gridInQuad', () => {
        for (const q of quads) {
          const found = gridInQuad(cv, small, q, track);
          if (found && (!best || found.score > best.score)) best = found;
        }
      });
      let grid = best.grid.map(([x, y]: any) => [x / 0.5, y / 0.5]);
      t('refine', () => {
        grid = refinePasses(cv, gray, grid, track, 3, 3).grid;
      });
      t('sym', () => symmetricShift(cv, colour, grid, track));
    });
  }
const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
for (const [k, v] of Object.entries(T)) console.log(k, med(v).toFixed(1));
