/**
 * Which of the camera's frames the camera page sends between turns. A board between two moves looks the same
 * second after second: sending it every second costs the phone its battery and the hall's Wi-Fi its air (a
 * 1920-px JPEG a second, 250–600 kB, per board), and the server a decode and a job per frame. So each second the
 * page glances at the camera through a small grey picture (GLANCE_WIDTH × GLANCE_HEIGHT) and sends the frame when:
 * - it looks changed from the last frame sent (a hand, a tile, the camera moved, the light): at least
 *   CHANGED_PIXELS of the small picture's pixels moved by LEVELS grey levels or more;
 * - or it is one of the SETTLE frames after a change, or after End turn: automatic capture wants a board that has
 *   stayed the same for a few frames (3 by default; two more in case one is read otherwise, or replaced in a busy
 *   server's queue by the next), a hand's wait wants the frame after the hand has gone, and the board-disturbed
 *   notice wants two frames running;
 * - or HEARTBEAT_MS have passed since the last one sent: the server keeps knowing the camera is there (it counts a
 *   camera that sent a frame in the last 10 s as streaming, and refuses End turn from the scorekeeper's page on a
 *   frame 20 s old).
 * End turn always sends. Pure: the page draws the small picture (smoothed, so each of its pixels is close to the
 * mean of the camera's pixels under it); this decides.
 */

/** The small grey picture the page compares frames by. */
export const GLANCE_WIDTH = 256;
export const GLANCE_HEIGHT = 192;
/** A pixel of the small picture has changed when its grey moved by at least this much (of 255). */
export const LEVELS = 16;
/**
 * A frame has changed when at least this many pixels of the small picture have. A tile put down on an empty square
 * (tiles copied onto empty squares, the frame 1280×720, shrunk with sharp as a smoothed draw shrinks) moved at least
 * 86 pixels with the board 680 px wide in the frame, 44 at 500 px and 29 at 400 px on two real German photos
 * (scrabscrap-de game01 and game04, 20 tiles), and 58, 30 and 20 on a rendered one; at 128×96 and 20 levels, fewer
 * than 12 pixels for 11 of those 20 real tiles at 400 px.
 */
export const CHANGED_PIXELS = 12;
/** Frames sent after a change, one a second, whether they changed or not. */
export const SETTLE = 5;
/** A frame is sent at least this often. */
export const HEARTBEAT_MS = 5000;

/** The grey levels of an RGBA picture (a canvas's ImageData), one byte a pixel. */
export function greyOf(rgba: ArrayLike<number>): Uint8Array {
  const grey = new Uint8Array(Math.floor(rgba.length / 4));
  for (let i = 0, p = 0; i < grey.length; i++, p += 4)
    grey[i] = (77 * rgba[p]! + 150 * rgba[p + 1]! + 29 * rgba[p + 2]!) >> 8;
  return grey;
}

/** How many pixels of two small grey pictures of the same size differ by at least LEVELS. */
export function changedPixels(a: Uint8Array, b: Uint8Array): number {
  let changed = 0;
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) >= LEVELS) changed++;
  return changed;
}

export class FrameGate {
  /** The small picture of the last frame sent, when, and the frames still to send after a change. */
  private last: Uint8Array | undefined;
  private lastSent = Number.NEGATIVE_INFINITY;
  private settle = 0;
  private live = false;

  /**
   * Whether to send the frame whose small grey picture is `glance`, taken at `now` (ms); `endTurn`: it ends the
   * turn, and is sent. A frame said to be sent becomes the one later frames are compared with.
   */
  next(glance: Uint8Array, now: number, endTurn = false): boolean {
    const changed =
      this.last === undefined ||
      this.last.length !== glance.length ||
      changedPixels(this.last, glance) >= CHANGED_PIXELS;
    if (!this.decide(changed, now, endTurn)) return false;
    this.last = glance;
    return true;
  }

  /** The same, for a caller that knows whether the picture changed since the last frame sent (the hall bench's
   *  simulated cameras, which send photos, not pixels). */
  decide(changed: boolean, now: number, endTurn = false): boolean {
    if (!(endTurn || changed || this.settle > 0 || now - this.lastSent >= HEARTBEAT_MS)) return false;
    if (changed || endTurn) this.settle = SETTLE;
    else if (this.settle > 0) this.settle--;
    this.lastSent = now;
    return true;
  }

  /**
   * The page's connection to the server is live, or not. Once it is live again (perhaps to another server of a hall,
   * which has no frame of this camera yet), the next frame is sent whatever it shows. Told on every message as well:
   * only the change from not live counts.
   */
  connection(live: boolean): void {
    if (live && !this.live) this.reset();
    this.live = live;
  }

  /** Forgets the frames sent: the next one is sent (another camera was chosen, or the server may have none). */
  reset(): void {
    this.last = undefined;
    this.settle = 0;
    this.lastSent = Number.NEGATIVE_INFINITY;
  }
}
