/** Debug images for a person to look at: the grid found drawn on the photo, the straightened board, and sheets of
 *  single squares. */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import { opencv, withMats } from './cv.ts';
import { apply } from './locate.ts';
import type { Corners, Point, RgbImage } from './types.ts';
import { CELL, MARGIN } from './warp.ts';

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

/** One square to show in a sheet: where it is on the upright board, and what to write under it. */
export interface SheetSquare {
  readonly row: number;
  readonly col: number;
  readonly caption: string;
}

const TILE_PX = 180;
const CAPTION_PX = 24;
const ACROSS = 6;

/**
 * A sheet of squares for a person to check by eye (`tilecam eval --debug`): each square with a cell of its
 * neighbours around it, cut from the straightened board, turned upright, framed, and captioned. `turns` is how the
 * board lies in `warped` (the reading's rotation in quarter turns). Writes `DIR/NAME.KIND.jpg`.
 */
export async function writeSquareSheet(
  dir: string,
  name: string,
  warped: RgbImage,
  turns: number,
  squares: readonly SheetSquare[],
  kind = 'squares',
): Promise<void> {
  if (squares.length === 0) return;
  await mkdir(dir, { recursive: true });
  const board = sharp(warped.data, { raw: { width: warped.width, height: warped.height, channels: 3 } });
  const tiles: OverlayOptions[] = [];
  for (const [k, { row, col, caption }] of squares.entries()) {
    // Where the upright square lies in the straightened board as seen (the inverse of uprightGrid).
    const [sr, sc] = [
      [row, col],
      [col, 14 - row],
      [14 - row, 14 - col],
      [14 - col, row],
    ][turns % 4] as [number, number];
    const left = Math.max(0, MARGIN + (sc - 1) * CELL);
    const top = Math.max(0, MARGIN + (sr - 1) * CELL);
    const side = 3 * CELL;
    const crop = await board
      .clone()
      .extract({
        left,
        top,
        width: Math.min(side, warped.width - left),
        height: Math.min(side, warped.height - top),
      })
      .resize(TILE_PX, TILE_PX, { fit: 'fill' })
      .rotate(-90 * (turns % 4))
      .png()
      .toBuffer();
    const third = TILE_PX / 3;
    const text = caption.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const svg = `<svg width="${TILE_PX}" height="${TILE_PX + CAPTION_PX}"><rect x="${third}" y="${third}" width="${third}" height="${third}" fill="none" stroke="magenta" stroke-width="3"/><rect x="0" y="${TILE_PX}" width="${TILE_PX}" height="${CAPTION_PX}" fill="white"/><text x="4" y="${TILE_PX + 18}" font-family="DejaVu Sans, sans-serif" font-size="15" fill="black">${text}</text></svg>`;
    const tile = await sharp({
      create: { width: TILE_PX, height: TILE_PX + CAPTION_PX, channels: 3, background: '#ffffff' },
    })
      .composite([{ input: crop }, { input: Buffer.from(svg) }])
      .png()
      .toBuffer();
    tiles.push({
      input: tile,
      left: (k % ACROSS) * (TILE_PX + 4),
      top: Math.floor(k / ACROSS) * (TILE_PX + CAPTION_PX + 4),
    });
  }
  const across = Math.min(ACROSS, squares.length);
  const down = Math.ceil(squares.length / ACROSS);
  await sharp({
    create: {
      width: across * (TILE_PX + 4) - 4,
      height: down * (TILE_PX + CAPTION_PX + 4) - 4,
      channels: 3,
      background: '#808080',
    },
  })
    .composite(tiles)
    .jpeg({ quality: 88 })
    .toFile(join(dir, `${name}.${kind}.jpg`));
}
