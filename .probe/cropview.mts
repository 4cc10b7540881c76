import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { decodeImage } from '../vision/decode.ts';
import { locateGrid } from '../vision/recognize.ts';
import { liftedCorners, TILE_HEIGHT } from '../vision/pose.ts';
import { warpBoard, CELL, MARGIN } from '../vision/warp.ts';
const [file, out, cellsArg] = process.argv.slice(2);
const photo = await decodeImage(await readFile(file!));
const c = await locateGrid(photo);
const faces = liftedCorners(c, photo, TILE_HEIGHT);
const w = warpBoard(photo, faces);
const [r0, c0, r1, c1] = cellsArg!.split(',').map(Number);
const left = MARGIN + c0! * CELL, top = MARGIN + r0! * CELL;
await sharp(Buffer.from(w.data), { raw: { width: w.width, height: w.height, channels: 3 } })
  .extract({ left, top, width: (c1! - c0! + 1) * CELL, height: (r1! - r0! + 1) * CELL }).resize({ width: 300, kernel: 'nearest' }).png().toFile(out!);
