import { describe, expect, it } from 'vitest';
import { cameraPose, liftedCorners, squareMisfit } from './pose.ts';
import type { Corners, Point } from './types.ts';

/** A pinhole camera `distance` squares from the board's centre, `tilt` degrees from straight above, beyond row 15,
 *  turned `yaw` degrees about the vertical; `focal` pixels, principal point the picture's middle. */
function camera(tilt: number, distance: number, focal: number, size = { width: 1280, height: 960 }, yaw = 0) {
  const a = (tilt * Math.PI) / 180;
  const b = (yaw * Math.PI) / 180;
  // Camera centre: above the board's centre (7.5, 7.5), moved toward y > 15 by the tilt and turned by the yaw.
  const d: [number, number, number] = [Math.sin(a) * Math.sin(b), Math.sin(a) * Math.cos(b), -Math.cos(a)];
  const C = [7.5 + distance * d[0], 7.5 + distance * d[1], distance * d[2]];
  // Looks at the centre: forward is -d; the picture's x axis runs along the board's rows.
  const fwd = [-d[0], -d[1], -d[2]];
  const right0 = [Math.cos(b), -Math.sin(b), 0];
  const down = cross(fwd, right0);
  const right = cross(down, fwd);
  return (x: number, y: number, z: number): Point => {
    const p = [x - C[0]!, y - C[1]!, z - C[2]!];
    const cz = dot(p, fwd);
    return [size.width / 2 + (focal * dot(p, right)) / cz, size.height / 2 + (focal * dot(p, down)) / cz];
  };
}
const dot = (a: number[], b: number[]) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
const cross = (a: number[], b: number[]) => [
  a[1]! * b[2]! - a[2]! * b[1]!,
  a[2]! * b[0]! - a[0]! * b[2]!,
  a[0]! * b[1]! - a[1]! * b[0]!,
];
const grid = (at: (x: number, y: number, z: number) => Point, z = 0): Corners => [
  at(0, 0, z),
  at(15, 0, z),
  at(15, 15, z),
  at(0, 15, z),
];
const size = { width: 1280, height: 960 };

describe('the camera pose from the board grid', () => {
  it('recovers the focal length and the angle of a view from the side of the table', () => {
    for (const [tilt, yaw] of [
      [45, 0],
      [60, 20],
      [70, -35],
    ] as const) {
      const at = camera(tilt, 22, 1000, size, yaw);
      const pose = cameraPose(grid(at), size);
      expect(pose?.solved).toBe(true);
      expect(pose!.focal).toBeCloseTo(1000, -1);
      expect(pose!.tilt).toBeCloseTo(tilt, 0);
      expect(pose!.height).toBeCloseTo(22 * Math.cos((tilt * Math.PI) / 180), 0);
    }
  });

  it('lifts the grid to the plane of the tiles’ faces, toward the camera', () => {
    const at = camera(65, 20, 900, size, 10);
    const lifted = liftedCorners(grid(at), size, 0.25);
    const truth = grid(at, -0.25); // the camera is at z < 0: toward it is −z
    lifted.forEach((p, i) => {
      expect(p[0]).toBeCloseTo(truth[i]![0], 0);
      expect(p[1]).toBeCloseTo(truth[i]![1], 0);
    });
    // The far corners move the most: up the picture, toward the far side.
    expect(lifted[0][1]).toBeLessThan(grid(at)[0][1] - 3);
  });

  it('leaves a view from straight above as it is (no focal length can be solved there)', () => {
    const at = camera(0, 25, 900, size);
    const corners = grid(at);
    expect(cameraPose(corners, size)?.solved).toBe(false);
    expect(liftedCorners(corners, size)).toBe(corners);
  });

  it('tells a square seen through a camera from a grid skewed across the board', () => {
    for (const tilt of [0, 30, 55, 70])
      for (const yaw of [0, 25, 45])
        for (const focal of [700, 1000, 2000]) {
          const at = camera(tilt, 25, focal, size, yaw);
          const view = `${tilt}° from above, turned ${yaw}°, focal ${focal} px`;
          expect(squareMisfit(grid(at), size), view).toBeLessThan(0.1);
          // A real board's squares are not quite square (and a real photo's middle is not quite its camera's):
          // 8% taller than wide is still a board.
          const tall: Corners = [at(0, 0, 0), at(15, 0, 0), at(15, 16.2, 0), at(0, 16.2, 0)];
          expect(squareMisfit(tall, size), view).toBeLessThan(0.6);
        }
    // Seen from a side of the table, a grid whose near corner lies 3 squares along the row, or one sheared 2 squares
    // (as found along a half-full board's tiles' edges), is no square.
    for (const tilt of [0, 30, 55, 70]) {
      const at = camera(tilt, 25, 1000, size);
      const skewed: Corners = [at(0, 0, 0), at(15, 0, 0), at(15, 15, 0), at(3, 15, 0)];
      const sheared: Corners = [at(0, 0, 0), at(15, 0, 0), at(13, 15, 0), at(-2, 15, 0)];
      expect(squareMisfit(skewed, size), `${tilt}°`).toBeGreaterThan(1.2);
      expect(squareMisfit(sheared, size), `${tilt}°`).toBeGreaterThan(1.2);
    }
    expect(
      squareMisfit(
        [
          [0, 0],
          [0, 0],
          [0, 0],
          [0, 0],
        ],
        size,
      ),
    ).toBe(Number.POSITIVE_INFINITY);
  });

  it('does not trust a focal length the corners do not pin down', () => {
    // The grids found on two real phone photos of one game (jheidel-en, 1200×1600, the same phone). 170324's pins
    // its focal length down (0.72 of the longer side, 34°). 170317's, a view of about 23°, solves to 2.5 of it and
    // 55°, and swings 1.8× with a corner moved by a twentieth of a square: lifted by that pose, its tiles were read a
    // third of a square off their faces. It is read on the board's plane, as a view whose focal length cannot be
    // solved is.
    const photo = { width: 1200, height: 1600 };
    const steady: Corners = [
      [247.3, 599.5],
      [730.9, 538.3],
      [926.1, 958.4],
      [306.7, 1072.7],
    ];
    const swinging: Corners = [
      [232.8, 570.3],
      [782.6, 499.1],
      [964.6, 1086.5],
      [288.1, 1204.3],
    ];
    const good = cameraPose(steady, photo)!;
    expect(good.solved).toBe(true);
    expect(good.focal / 1600).toBeCloseTo(0.72, 1);
    expect(liftedCorners(steady, photo)).not.toBe(steady);
    const bad = cameraPose(swinging, photo)!;
    expect(bad.solved).toBe(false);
    expect(bad.tilt).toBeLessThan(30);
    expect(liftedCorners(swinging, photo)).toBe(swinging);
  });

  it('leaves degenerate corners as they are', () => {
    const flat: Corners = [
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
    ];
    expect(cameraPose(flat, size)).toBeUndefined();
    expect(liftedCorners(flat, size)).toBe(flat);
  });
});
