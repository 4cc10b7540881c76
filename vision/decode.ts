/**
 * Image bytes to RGB pixels with sharp: JPEG, PNG, WebP (anything sharp reads), EXIF orientation applied, alpha
 * dropped. Caps on bytes and pixels keep a hostile upload from exhausting memory.
 */
import sharp, { type Metadata, type Sharp } from 'sharp';
import { type RgbImage, VisionError } from './types.ts';

export const MAX_BYTES = 25 * 1024 * 1024;
export const MAX_PIXELS = 40_000_000;
/**
 * Photos are decoded at most this many pixels on their longer side. The straightened board needs about 40 px a cell
 * (600 px for the grid); more only slows decoding: a phone's 12-megapixel JPEG is shrunk while it is decoded.
 */
export const DECODE_SIDE = 2000;

/** A decoded photo, and its pixels per pixel of the original photo on each axis (1 unless it was shrunk). */
export interface DecodedImage extends RgbImage {
  readonly scaleX: number;
  readonly scaleY: number;
}

/**
 * The one way tilecam opens an image with sharp for decoding: at most MAX_PIXELS (refused from the header, before
 * any pixel is decoded), whatever the route (a frame, a score check, a thumbnail, a photo kept).
 */
export function openImage(input: Uint8Array, failOn?: 'truncated'): Sharp {
  return sharp(input, { limitInputPixels: MAX_PIXELS, ...(failOn ? { failOn } : {}) });
}

/** A photo as it is kept on disk: its type, and at most KEPT_SIDE pixels a side and about KEPT_BYTES. */
export interface KeptImage {
  readonly type: 'image/jpeg' | 'image/png' | 'image/webp';
  readonly bytes: Uint8Array;
}

/** A kept photo is at most this many pixels on its longer side: the side a photo is read at (DECODE_SIDE). */
export const KEPT_SIDE = DECODE_SIDE;
/** A kept photo larger than this (a 2000-px JPEG is about 0.5–1 MB) is encoded again. */
export const KEPT_BYTES = 2 * 1024 * 1024;

const KEPT_TYPES: Record<string, KeptImage['type']> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

/**
 * What is kept of an uploaded photo: never more than the picture. The bytes up to the image's end (a JPEG's EOI, a
 * PNG's IEND, a WebP's RIFF length), so that padding after it is not stored; a picture over KEPT_SIDE a side or
 * KEPT_BYTES, or whose end cannot be found, is kept as a JPEG of KEPT_SIDE (its orientation applied). A file that is
 * not a JPEG, PNG or WebP, or that holds over MAX_PIXELS, is refused (VisionError) before any pixel is decoded.
 */
export async function keptImage(input: Uint8Array): Promise<KeptImage> {
  const meta = await header(input);
  const type = meta.format ? KEPT_TYPES[meta.format] : undefined;
  if (!type)
    throw new VisionError('not-an-image', 'this is not an image tilecam can read (JPEG, PNG or WebP)');
  if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_PIXELS)
    throw new VisionError(
      'image-too-large',
      `the image is ${meta.width}×${meta.height}: over ${MAX_PIXELS / 1e6} megapixels`,
    );
  const end = imageEnd(input, type);
  const trimmed = end === undefined ? undefined : input.subarray(0, end);
  if (trimmed && Math.max(meta.width ?? 0, meta.height ?? 0) <= KEPT_SIDE && trimmed.byteLength <= KEPT_BYTES)
    return { type, bytes: trimmed };
  let bytes: Buffer;
  try {
    bytes = await openImage(input)
      .rotate()
      .resize({ width: KEPT_SIDE, height: KEPT_SIDE, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 85 })
      .toBuffer();
  } catch (err) {
    throw await whyNot(input, err as Error);
  }
  return { type: 'image/jpeg', bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}

/**
 * Where the image in `b` ends, by its container's own structure; undefined where the structure does not hold. A
 * JPEG: its segments by their lengths to the scan, the entropy-coded data to the next marker that is not a stuffed
 * byte or a restart, and so on to EOI (an EXIF thumbnail's own EOI lies inside its APP1 segment and is skipped). A
 * PNG: its chunks by their lengths to IEND. A WebP: the RIFF header's length.
 */
export function imageEnd(b: Uint8Array, type: KeptImage['type']): number | undefined {
  if (type === 'image/webp') {
    if (b.byteLength < 12) return undefined;
    const size = (b[4]! | (b[5]! << 8) | (b[6]! << 16) | (b[7]! << 24)) >>> 0;
    const end = 8 + size + (size % 2);
    return end <= b.byteLength ? end : undefined;
  }
  if (type === 'image/png') {
    let i = 8;
    while (i + 12 <= b.byteLength) {
      const length = ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0;
      const name = String.fromCharCode(b[i + 4]!, b[i + 5]!, b[i + 6]!, b[i + 7]!);
      i += 12 + length;
      if (name === 'IEND') return i <= b.byteLength ? i : undefined;
    }
    return undefined;
  }
  if (b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  let i = 2;
  while (i + 1 < b.byteLength) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++; // a fill byte
      continue;
    }
    if (marker === 0xd9) return i + 2;
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2;
      continue;
    }
    if (i + 3 >= b.byteLength) return undefined;
    i += 2 + ((b[i + 2]! << 8) | b[i + 3]!);
    if (marker !== 0xda) continue;
    // The scan's data: up to the next marker that is neither a stuffed 0xFF00 nor a restart (RST0–7).
    while (i + 1 < b.byteLength) {
      if (b[i] === 0xff) {
        const next = b[i + 1]!;
        if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) {
          i += 2;
          continue;
        }
        if (next !== 0xff) break;
      }
      i++;
    }
  }
  return undefined;
}

export async function decodeImage(input: Uint8Array, maxSide = DECODE_SIDE): Promise<DecodedImage> {
  if (input.byteLength === 0) throw new VisionError('not-an-image', 'the image is empty');
  if (input.byteLength > MAX_BYTES) {
    throw new VisionError('image-too-large', `the image is over ${MAX_BYTES / 1024 / 1024} MB`);
  }
  let decoded: { data: Buffer; info: { width: number; height: number; channels: number } };
  try {
    decoded = await openImage(input, 'truncated')
      .rotate()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (err) {
    throw await whyNot(input, err as Error);
  }
  const { data, info } = decoded;
  if (info.channels !== 3)
    throw new VisionError(
      'corrupt-image',
      `the image could not be decoded: unexpected ${info.channels} channels`,
    );
  // The photo was shrunk while it was decoded only if a side reached maxSide: only then is its own size needed (its
  // header read again; a frame of a camera is read without it, a third of a millisecond a frame).
  let [scaleX, scaleY] = [1, 1];
  if (Math.max(info.width, info.height) >= maxSide) {
    const meta = await header(input);
    // The photo as seen once its EXIF orientation is applied (orientations 5 to 8 swap the sides).
    const turned = (meta.orientation ?? 1) >= 5;
    const [seenWidth, seenHeight] = turned
      ? [meta.height ?? 0, meta.width ?? 0]
      : [meta.width ?? 0, meta.height ?? 0];
    scaleX = seenWidth > 0 ? info.width / seenWidth : 1;
    scaleY = seenHeight > 0 ? info.height / seenHeight : 1;
  }
  return {
    width: info.width,
    height: info.height,
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    scaleX,
    scaleY,
  };
}

/**
 * Why `input` could not be decoded, as its header tells: it is no image sharp reads, it holds more than MAX_PIXELS
 * (refused from the header, before any pixel is decoded), or it is damaged (`err`, the decoder's own words).
 */
async function whyNot(input: Uint8Array, err: Error): Promise<VisionError> {
  let meta: Metadata;
  try {
    meta = await header(input);
  } catch (notAnImage) {
    return notAnImage as VisionError;
  }
  if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_PIXELS) {
    return new VisionError(
      'image-too-large',
      `the image is ${meta.width}×${meta.height}: over ${MAX_PIXELS / 1e6} megapixels`,
    );
  }
  // The decoder's own words where they are its library's (libvips: "VipsJpeg: premature end of JPEG image"), said
  // for people where the cause is known.
  if (/premature end|truncated|unexpected end/i.test(err.message))
    return new VisionError(
      'corrupt-image',
      'the image is cut off: the file ends before the picture does (it may not have been copied or uploaded whole)',
    );
  return new VisionError('corrupt-image', `the image could not be decoded: ${err.message}`);
}

/**
 * Throws the VisionError `decodeImage` would for `input` as far as its header tells (empty, too many bytes, not an
 * image, too many pixels), without decoding it: for a picture handed on to be decoded elsewhere (a thread).
 */
export async function checkImage(input: Uint8Array): Promise<void> {
  if (input.byteLength === 0) throw new VisionError('not-an-image', 'the image is empty');
  if (input.byteLength > MAX_BYTES)
    throw new VisionError('image-too-large', `the image is over ${MAX_BYTES / 1024 / 1024} MB`);
  const meta = await header(input);
  if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_PIXELS)
    throw new VisionError(
      'image-too-large',
      `the image is ${meta.width}×${meta.height}: over ${MAX_PIXELS / 1e6} megapixels`,
    );
}

/** What the photo's header says of it (sizes, orientation); a VisionError (`not-an-image`) when sharp cannot say:
 *  a photo it decodes but will not describe is refused so too, as when the header was read first. */
async function header(input: Uint8Array): Promise<Metadata> {
  try {
    return await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new VisionError('not-an-image', 'this is not an image tilecam can read (JPEG, PNG or WebP)');
  }
}

/** The image scaled down (never up) so that its longer side is at most `longSide`, with libvips' resampling. */
export async function shrink(image: RgbImage, longSide: number): Promise<RgbImage> {
  const factor = longSide / Math.max(image.width, image.height);
  if (factor >= 1) return image;
  const width = Math.max(1, Math.round(image.width * factor));
  const height = Math.max(1, Math.round(image.height * factor));
  const data = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .resize(width, height, { fit: 'fill' })
    .raw()
    .toBuffer();
  return { width, height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}
