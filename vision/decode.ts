/**
 * Image bytes to RGB pixels with sharp: JPEG, PNG, WebP (anything sharp reads), EXIF orientation applied, alpha
 * dropped. Caps on bytes and pixels keep a hostile upload from exhausting memory.
 */
import sharp, { type Metadata } from 'sharp';
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

export async function decodeImage(input: Uint8Array, maxSide = DECODE_SIDE): Promise<DecodedImage> {
  if (input.byteLength === 0) throw new VisionError('not-an-image', 'the image is empty');
  if (input.byteLength > MAX_BYTES) {
    throw new VisionError('image-too-large', `the image is over ${MAX_BYTES / 1024 / 1024} MB`);
  }
  let decoded: { data: Buffer; info: { width: number; height: number; channels: number } };
  try {
    decoded = await sharp(input, { failOn: 'truncated', limitInputPixels: MAX_PIXELS })
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
