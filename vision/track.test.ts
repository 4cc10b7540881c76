/**
 * Is the grid where it was? The lines' edges say so when it is (tiles put down or taken away, the light changed),
 * say how far it went when it moved by a pixel or more, and say nothing when too little of the lines is seen.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImage } from './decode.ts';
import { gridHomography, project } from './homography.ts';
import { recognize } from './recognize.ts';
import { gridShift, gridStayed, lineProfiles } from './track.ts';
import type { Corners, RgbImage } from './types.ts';

const frame = readFileSync(new URL('../fixtures/demo_game/2.jpg', import.meta.url));

/** The photo moved `dx`, `dy` pixels and turned `degrees` about its centre, the same size. */
async function moved(photo: RgbImage, dx: number, dy: number, degrees = 0): Promise<RgbImage> {
  const raw = { raw: { width: photo.width, height: photo.height, channels: 3 as const } };
  let turned = sharp(photo.data, raw);
  let size = { width: photo.width, height: photo.height };
  if (degrees) {
    const out = await turned
      .rotate(degrees, { background: '#000' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    size = { width: out.info.width, height: out.info.height };
    // Cut back to the photo's size about the centre.
    turned = sharp(out.data, { raw: { ...size, channels: 3 } }).extract({
      left: Math.floor((size.width - photo.width) / 2),
      top: Math.floor((size.height - photo.height) / 2),
      width: photo.width,
      height: photo.height,
    });
  }
  const centred = await turned.raw().toBuffer();
  const shifted = await sharp(centred, raw)
    .extend({ left: dx, top: dy, background: '#000' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const data = await sharp(shifted.data, {
    raw: { width: shifted.info.width, height: shifted.info.height, channels: 3 },
  })
    .extract({ left: 0, top: 0, width: photo.width, height: photo.height })
    .raw()
    .toBuffer();
  return { width: photo.width, height: photo.height, data: new Uint8Array(data) };
}

describe('the grid lines of a steady camera', () => {
  it('stand where they stood when tiles are put down on many squares and the light changes', async () => {
    const photo = await decodeImage(frame);
    const { corners } = await recognize(frame);
    const before = lineProfiles(photo, corners);
    // 60 squares get a tile, and the whole picture is a third darker.
    const h = gridHomography(corners);
    const tiles = Array.from({ length: 60 }, (_, k) => {
      const [row, col] = [2 + Math.floor(k / 12), 1 + (k % 12)];
      const [x0, y0] = project(h, col + 0.08, row + 0.08);
      const [x1, y1] = project(h, col + 0.92, row + 0.92);
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.ceil(x1 - x0)}" height="${Math.ceil(y1 - y0)}"><rect width="100%" height="100%" fill="#f1dfb4"/></svg>`;
      return { input: Buffer.from(svg), left: Math.round(x0), top: Math.round(y0) };
    });
    const changed = await decodeImage(
      await sharp(frame).composite(tiles).linear(0.66, 0).jpeg({ quality: 90 }).toBuffer(),
    );
    const now = lineProfiles(changed, corners);
    expect(gridShift(before, now)).toBeLessThan(0.02);
    expect(gridStayed(before, now)).toBe(true);
  });

  it('say how far the board went, a pixel or more, and that it moved from a tenth of a square on', async () => {
    const photo = await decodeImage(frame);
    const { corners } = await recognize(frame);
    const square = Math.hypot(corners[1][0] - corners[0][0], corners[1][1] - corners[0][1]) / 15;
    const before = lineProfiles(photo, corners);
    for (const [dx, dy] of [
      [1, 0],
      [2, 1],
      [0, 3],
    ] as const) {
      const shift = gridShift(before, lineProfiles(await moved(photo, dx, dy), corners));
      expect(shift).toBeDefined();
      expect(Math.abs(shift! - Math.hypot(dx, dy) / square)).toBeLessThan(0.012);
    }
    // Moved and in another light: still measured.
    const darker = await moved(photo, 2, 1);
    for (let i = 0; i < darker.data.length; i++) darker.data[i] = Math.round(0.7 * darker.data[i]!);
    expect(
      Math.abs(gridShift(before, lineProfiles(darker, corners))! - Math.hypot(2, 1) / square),
    ).toBeLessThan(0.012);
    const tenth = Math.ceil(0.1 * square);
    expect(gridStayed(before, lineProfiles(await moved(photo, tenth, 0), corners))).toBe(false);
    expect(gridStayed(before, lineProfiles(await moved(photo, 0, tenth), corners))).toBe(false);
    // Turned half a degree about the picture's centre: the corners go furthest.
    expect(gridStayed(before, lineProfiles(await moved(photo, 0, 0, 0.5), corners))).toBe(false);
  });

  it('say nothing when too little of them is seen (a cloth over nine tenths of the board)', async () => {
    const photo = await decodeImage(frame);
    const { corners } = await recognize(frame);
    const before = lineProfiles(photo, corners);
    const xs = corners.map(([x]) => x);
    const ys = corners.map(([, y]) => y);
    const [left, top] = [Math.round(Math.min(...xs)), Math.round(Math.min(...ys))];
    const cloth = await sharp({
      create: {
        width: Math.round(1.02 * (Math.max(...xs) - left)),
        height: Math.round(0.9 * (Math.max(...ys) - top)),
        channels: 3,
        background: '#556',
      },
    })
      .png()
      .toBuffer();
    const covered = await decodeImage(
      await sharp(frame)
        .composite([{ input: cloth, left, top }])
        .jpeg()
        .toBuffer(),
    );
    expect(gridShift(before, lineProfiles(covered, corners))).toBeUndefined();
    expect(gridStayed(before, lineProfiles(covered, corners))).toBe(false);
    // A grid outside the picture is not looked at.
    const outside: Corners = [
      [-5000, -5000],
      [-4000, -5000],
      [-4000, -4000],
      [-5000, -4000],
    ];
    expect(gridShift(lineProfiles(photo, outside), lineProfiles(photo, outside))).toBeUndefined();
  });
});
