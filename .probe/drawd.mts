import { readFile } from 'node:fs/promises';
import { decodeImage } from '../vision/decode.ts';
import { writeDebugImages } from '../vision/debug.ts';
const [file, out, cs] = process.argv.slice(2);
const photo = await decodeImage(await readFile(file!));
const c = cs!.split(' ').map((p) => p.split(',').map(Number)) as any;
await writeDebugImages(out!, 'c', photo, c);
