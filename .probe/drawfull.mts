import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { decodeImage } from '../vision/decode.ts';
import { locateGrid } from '../vision/recognize.ts';
import { writeDebugImages } from '../vision/debug.ts';
const [file, out, crop] = process.argv.slice(2);
const photo = await decodeImage(await readFile(file!));
const c = await locateGrid(photo);
console.log(photo.width, photo.height, JSON.stringify(c.map((p) => p.map(Math.round))));
await writeDebugImages(out!, 'full', photo, c);
if (crop) { const [l, t, w, h] = crop.split(',').map(Number); await sharp(`${out}/full.grid.jpg`).extract({ left: l!, top: t!, width: w!, height: h! }).resize({ width: 800 }).png().toFile(`${out}/crop.png`); }
