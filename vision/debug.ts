/** Debug images for a person to look at: the grid found drawn on the photo, and the straightened board. */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { opencv, withMats } from './cv.ts';
import { apply } from './locate.ts';
import type { Corners, Point, RgbImage } from './types.ts';

export async function writeDebugImages(
  dir: string,
  name: string,
  photo: RgbImage,
  corners: Corners,
  warped?: RgbImage,
) {
  await mkdir(dir, { recursive: true });
  const { cv } = opencv();
  const drawn = withMats((track) => {
    const img = track(new cv.Mat(photo.height, photo.width, cv.CV_8UC3));
    img.data.set(photo.data);
    const from = track(cv.matFromArray(4, 1, cv.CV_32FC2, [0, 0, 15, 0, 15, 15, 0, 15]));
    const to = track(cv.matFromArray(4, 1, cv.CV_32FC2, corners.flat()));
    const H = track(cv.getPerspectiveTransform(from, to));
    const thick = Math.max(1, Math.round(Math.max(photo.width, photo.height) / 500));
    const pt = (p: Point) => new cv.Point(Math.round(p[0]), Math.round(p[1]));
    for (let k = 0; k <= 15; k++) {
      const colour = k === 0 || k === 15 ? new cv.Scalar(255, 0, 255) : new cv.Scalar(0, 255, 255);
      cv.line(img, pt(apply(H, [k, 0])), pt(apply(H, [k, 15])), colour, thick);
      cv.line(img, pt(apply(H, [0, k])), pt(apply(H, [15, k])), colour, thick);
    }
    return new Uint8Array(img.data);
  });
  const raw = (img: RgbImage, data = img.data) => ({
    raw: { width: img.width, height: img.height, channels: 3 as const },
    data,
  });
  const a = raw(photo, drawn);
  await sharp(a.data, { raw: a.raw })
    .jpeg({ quality: 85 })
    .toFile(join(dir, `${name}.grid.jpg`));
  if (warped) {
    const b = raw(warped);
    await sharp(b.data, { raw: b.raw })
      .jpeg({ quality: 90 })
      .toFile(join(dir, `${name}.warped.jpg`));
  }
}
