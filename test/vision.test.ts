/**
 * The vision pipeline on the project's own rendered photos (every square checked), and on bad input: each gets a
 * typed error, never a crash or a hang.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { offPicture } from '../vision/geometry.ts';
import { decodeImage, recognize, VisionError } from '../vision/index.ts';

const photos = fileURLToPath(new URL('../fixtures/photos/', import.meta.url));
const scenarios = readdirSync(photos)
  .filter((f) => f.endsWith('.jpg'))
  .map((f) => f.replace(/\.jpg$/, ''));

/** Width, height and scale on each axis of a photo as decoded. */
async function decodedSize(bytes: Uint8Array): Promise<number[]> {
  const d = await decodeImage(bytes);
  return [d.width, d.height, d.scaleX, d.scaleY];
}

async function visionError(bytes: Uint8Array): Promise<VisionError> {
  try {
    await recognize(bytes);
  } catch (err) {
    if (err instanceof VisionError) return err;
    throw err;
  }
  throw new Error('expected a VisionError');
}

describe('recognize on rendered photos', () => {
  for (const name of scenarios) {
    it(`reads every square of ${name}`, async () => {
      const expected = readFileSync(join(photos, `${name}.txt`), 'utf8')
        .trimEnd()
        .split('\n');
      const letters = name.startsWith('german')
        ? 'ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ'
        : 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
      const reading = await recognize(readFileSync(join(photos, `${name}.jpg`)), { letters });
      const unsure = new Set(reading.unsure.map((s) => s.row * 15 + s.col));
      const wrong: string[] = [];
      for (let r = 0; r < 15; r++) {
        for (let c = 0; c < 15; c++) {
          const want = expected[r]![c]!;
          const got = reading.board[r]![c]!;
          // Every square is read right, or reported unsure for a person to check: never wrong and sure.
          if (got !== want && !unsure.has(r * 15 + c))
            wrong.push(`${r + 1}${'ABCDEFGHIJKLMNO'[c]}: ${want}→${got}`);
        }
      }
      expect(wrong).toEqual([]);
      const turns = { seen_from_the_left_side: 90, upside_down_black_tiles: 180 }[name] ?? 0;
      expect(reading.rotation).toBe(turns);
      // A hand (or a smudge) over the board leaves the squares under it unsure: they wait for a person, not a guess.
      if (name.startsWith('hand') || name.startsWith('smudge'))
        expect(reading.unsure.length).toBeGreaterThan(0);
      else expect(reading.unsure.length).toBeLessThanOrEqual(11); // at most 5% of the squares need a look
    });
  }

  it('refines from the last frame’s corners (a steady camera) and reads the same board', async () => {
    const bytes = readFileSync(join(photos, 'seen_from_the_left_side.jpg'));
    const first = await recognize(bytes);
    const next = await recognize(bytes, { hint: first.corners });
    expect(next.board).toEqual(first.board);
    expect(next.rotation).toBe(first.rotation);
    for (const [i, [x, y]] of next.corners.entries()) {
      expect(Math.hypot(x - first.corners[i]![0], y - first.corners[i]![1])).toBeLessThan(3);
    }
  });

  it('reads a large photo decoded smaller, with corners in the photo’s own pixels', async () => {
    const bytes = readFileSync(join(photos, 'overhead_green_cream.jpg'));
    const small = await recognize(bytes);
    // 3000×3000: decoded at 2000×2000, reported back ×3 of the 1000×1000 photo's corners.
    const large = await sharp(bytes).resize(3000, 3000).jpeg({ quality: 92 }).toBuffer();
    expect(await decodedSize(large)).toEqual([2000, 2000, 2 / 3, 2 / 3]);
    const big = await recognize(large);
    expect(big.board).toEqual(small.board);
    for (const [i, [x, y]] of big.corners.entries()) {
      expect(Math.hypot(x - 3 * small.corners[i]![0], y - 3 * small.corners[i]![1])).toBeLessThan(6);
    }
    const fixed = await recognize(large, { corners: big.corners });
    expect(fixed.board).toEqual(small.board);
    expect(fixed.corners).toEqual(big.corners);
  });

  it('scales a large photo by its sides as seen, after its EXIF orientation', async () => {
    // 3000 wide, 1500 high, shown turned a quarter (EXIF 6): seen 1500×3000, decoded 1000×2000.
    const turned = await sharp({ create: { width: 3000, height: 1500, channels: 3, background: '#444' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(await decodedSize(turned)).toEqual([1000, 2000, 2 / 3, 2 / 3]);
  });

  it('falls back to a full search when the hint is far off', async () => {
    const bytes = readFileSync(join(photos, 'overhead_green_cream.jpg'));
    const found = await recognize(bytes);
    const wrong = found.corners.map(
      ([x, y]) => [x * 0.5, y * 0.5] as const,
    ) as unknown as typeof found.corners;
    const again = await recognize(bytes, { hint: wrong });
    expect(again.board).toEqual(found.board);
  });

  it('drops the last frame’s corners when the board has moved since (a board swapped between seats)', async () => {
    const me = join(photos, '../me_game');
    const before = await recognize(readFileSync(join(me, '1-0.jpg')));
    const bytes = readFileSync(join(me, '2-2.jpg'));
    const fresh = await recognize(bytes);
    const hinted = await recognize(bytes, { hint: before.corners });
    expect(hinted.board).toEqual(fresh.board);
    expect(hinted.corners).toEqual(fresh.corners);
    expect(hinted.corners).not.toEqual(before.corners);
  });

  it('skips the search with fixed corners and reads the same board', async () => {
    const bytes = readFileSync(join(photos, 'overhead_green_cream.jpg'));
    const found = await recognize(bytes);
    const fixed = await recognize(bytes, { corners: found.corners });
    expect(fixed.board).toEqual(found.board);
    expect(fixed.ms.locate).toBeLessThan(found.ms.locate);
  });
});

/** A PNG header that claims `width`×`height` with one row of data: enough for a decoder to read the size. */
function pngClaiming(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1 + 3 * 16))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('recognize on bad input', () => {
  it('says clearly that text is not an image', async () => {
    expect((await visionError(Buffer.from('this is not a photo of a board'))).code).toBe('not-an-image');
    expect((await visionError(new Uint8Array(0))).code).toBe('not-an-image');
  });

  it('refuses a truncated JPEG', async () => {
    const whole = readFileSync(join(photos, 'overhead_green_cream.jpg'));
    const err = await visionError(whole.subarray(0, Math.floor(whole.length / 2)));
    expect(err.code).toBe('corrupt-image');
    expect(err.message).toBe(
      'the image is cut off: the file ends before the picture does (it may not have been copied or uploaded whole)',
    );
  });

  it('refuses a 20000×20000 image before decoding it', async () => {
    const started = Date.now();
    const err = await visionError(pngClaiming(20000, 20000));
    expect(err.code).toBe('image-too-large');
    expect(err.message).toMatch(/20000×20000/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('says when a photo holds no board', async () => {
    const noise = Buffer.alloc(640 * 480 * 3);
    let seed = 7;
    for (let i = 0; i < noise.length; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      noise[i] = seed >>> 24;
    }
    const photo = await sharp(noise, { raw: { width: 640, height: 480, channels: 3 } })
      .blur(3)
      .jpeg()
      .toBuffer();
    expect((await visionError(photo)).code).toBe('no-board');
    const plain = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#8a6a4a' } })
      .jpeg()
      .toBuffer();
    expect((await visionError(plain)).code).toBe('no-board');
  });

  it('says when the grid found runs off the picture, rather than reading a board it cannot see whole', async () => {
    // The rendered overhead board with the right fifth of the photo cut away: its last columns are not in it.
    const cut = await sharp(readFileSync(join(photos, 'overhead_green_cream.jpg')))
      .extract({ left: 0, top: 0, width: 800, height: 1000 })
      .jpeg()
      .toBuffer();
    const err = await visionError(cut);
    expect(err.code).toBe('no-board');
    expect(err.message).toMatch(/runs off the picture by a whole row or column/);
  });

  it('measures how far a grid runs off the picture, in its own squares', () => {
    const photo = { width: 1000, height: 800 };
    // A 750 px grid (50 px squares) inside the picture, then 100 px off its right edge, then 25 px above its top.
    expect(
      offPicture(
        [
          [100, 20],
          [850, 20],
          [850, 770],
          [100, 770],
        ],
        photo,
      ),
    ).toBe(0);
    expect(
      offPicture(
        [
          [350, 20],
          [1100, 20],
          [1100, 770],
          [350, 770],
        ],
        photo,
      ),
    ).toBeCloseTo(2, 9);
    expect(
      offPicture(
        [
          [100, -25],
          [850, -25],
          [850, 725],
          [100, 725],
        ],
        photo,
      ),
    ).toBeCloseTo(0.5, 9);
  });

  it('refuses corners that do not outline a board', async () => {
    const bytes = readFileSync(join(photos, 'overhead_green_cream.jpg'));
    await expect(
      recognize(bytes, {
        corners: [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 1],
        ],
      }),
    ).rejects.toMatchObject({ code: 'bad-corners' });
  });
});
