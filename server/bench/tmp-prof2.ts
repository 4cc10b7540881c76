import { readFileSync, readdirSync } from 'node:fs';
import { opencv, withMats } from '../../vision/cv.ts';
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
      const src = t('mat', () => track(new cv.Mat(rgb.height, rgb.width, cv.CV_8UC3)));
      t('set', () => src.data.set(rgb.data));
      const scale = Math.min(1, 640 / Math.max(rgb.width, rgb.height));
      const sized = track(new cv.Mat());
      t('resize', () =>
        cv.resize(
          src,
          sized,
          new cv.Size(Math.round(rgb.width * scale), Math.round(rgb.height * scale)),
          0,
          0,
          cv.INTER_AREA,
        ),
      );
      const pad = Math.round(0.03 * Math.max(sized.cols, sized.rows));
      const colour = track(new cv.Mat());
      t('border', () =>
        cv.copyMakeBorder(sized, colour, pad, pad, pad, pad, cv.BORDER_CONSTANT, new cv.Scalar(0, 0, 0, 255)),
      );
      const gray = track(new cv.Mat());
      t('gray', () => cv.cvtColor(colour, gray, cv.COLOR_RGB2GRAY));
      const small = track(new cv.Mat());
      t('small', () =>
        cv.resize(
          gray,
          small,
          new cv.Size(Math.round(gray.cols * 0.5), Math.round(gray.rows * 0.5)),
          0,
          0,
          cv.INTER_AREA,
        ),
      );
      const warped = track(new cv.Mat());
      const H = track(cv.Mat.eye(3, 3, cv.CV_64F));
      t('warp300', () =>
        cv.warpPerspective(small, warped, H, new cv.Size(300, 300), cv.INTER_LINEAR, cv.BORDER_REPLICATE),
      );
      const gx = track(new cv.Mat());
      const gy = track(new cv.Mat());
      t('sobel2', () => {
        cv.Sobel(warped, gx, cv.CV_32F, 1, 0, 3);
        cv.Sobel(warped, gy, cv.CV_32F, 0, 1, 3);
      });
      t('profile', () => {
        const dx = gx.data32F as Float32Array;
        const dy = gy.data32F as Float32Array;
        const vx = new Float64Array(300),
          vy = new Float64Array(300);
        for (let y = 0; y < 300; y++)
          for (let x = 0; x < 300; x++) {
            vx[x]! += Math.abs(dx[y * 300 + x]!);
            vy[y]! += Math.abs(dy[y * 300 + x]!);
          }
      });
    });
  }
const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
for (const [k, v] of Object.entries(T)) console.log(k, med(v).toFixed(2));
