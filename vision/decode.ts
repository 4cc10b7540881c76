/**
 * Image bytes to RGB pixels with sharp: JPEG, PNG, WebP (anything sharp reads), EXIF orientation applied, alpha
 * dropped. Caps on bytes and pixels keep a hostile upload from exhausting memory.
 */
import sharp, { type Metadata } from 'sharp';
import { type RgbImage, VisionError } from './types.ts';

export const MAX_BYTES = 25 * 1024 * 1024;
export const MAX_PIXELS = 40_000_000;

export async function decodeImage(input: Uint8Array): Promise<RgbImage> {
  if (input.byteLength === 0) throw new VisionError('not-an-image', 'the image is empty');
  if (input.byteLength > MAX_BYTES) {
    throw new VisionError('image-too-large', `the image is over ${MAX_BYTES / 1024 / 1024} MB`);
  }
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new VisionError('not-an-image', 'this is not an image tilecam can read (JPEG, PNG or WebP)');
  }
  const pixels = (meta.width ?? 0) * (meta.height ?? 0);
  if (pixels > MAX_PIXELS) {
    throw new VisionError(
      'image-too-large',
      `the image is ${meta.width}×${meta.height}: over ${MAX_PIXELS / 1e6} megapixels`,
    );
  }
  try {
    const { data, info } = await sharp(input, { failOn: 'truncated', limitInputPixels: MAX_PIXELS })
      .rotate()
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`unexpected ${info.channels} channels`);
    return {
      width: info.width,
      height: info.height,
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    };
  } catch (err) {
    throw new VisionError('corrupt-image', `the image could not be decoded: ${(err as Error).message}`);
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
