/**
 * tilecam's vision: image in, BoardReading out. No game rules, no HTTP. OpenCV stays behind ./cv.ts.
 */
export { type MemoryOptions, TileMemory } from './adapt.ts';
export { Camera, type CameraOptions, type CameraReading, type ReadPath } from './camera.ts';
export { DEFAULT_MODEL, loadModel } from './classify.ts';
export { type SheetSquare, writeDebugImages, writeSquareSheet } from './debug.ts';
export {
  checkImage,
  type DecodedImage,
  decodeImage,
  type KeptImage,
  keptImage,
  MAX_BYTES,
  MAX_PIXELS,
  openImage,
} from './decode.ts';
export { gridHomography, project } from './homography.ts';
export { locateBoard, orderCorners } from './locate.ts';
export { type RackReading, type RackTile, readRack } from './rack.ts';
export {
  DEFAULT_THRESHOLD,
  locateGrid,
  prepareVision,
  type RecognizeOptions,
  recognize,
} from './recognize.ts';
export type { BoardReading, Corners, Point, RgbImage, Rotation, VisionErrorCode } from './types.ts';
export { VisionError } from './types.ts';
