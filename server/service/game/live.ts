/**
 * The live side both kinds of game share, in one place: the viewers told after a change, the frame intake (each
 * camera seat's last frame and grid, the camera pictures, doubled End turns), the readings held for the
 * scorekeeper with their photos, and the camera streams shown to the scorekeeper.
 */
export { type Behind, type Held, HeldReadings, photoUrl } from './held.ts';
export {
  FrameIntake,
  LAST_FRAME_MS,
  NO_SHARE,
  NoFrameYet,
  type PictureShare,
  type Watching,
} from './intake.ts';
export { SourceBoard, STREAM_STOPPED } from './source-board.ts';
export { eventsAfter, Viewers } from './viewers.ts';
