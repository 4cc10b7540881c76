import { readFile } from 'node:fs/promises';
import { decodeImage, shrink } from '../vision/decode.ts';
import { WORK } from '../vision/locate.ts';
import { writeDebugImages } from '../vision/debug.ts';
const [file, out, cs] = process.argv.slice(2);
const photo = await decodeImage(await readFile(file!));
const work = await shrink(photo, WORK);
const c = cs!.split(' ').map((p) => p.split(',').map(Number)) as any;
await writeDebugImages(out!, 'c', work, c);
