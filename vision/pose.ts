/**
 * Where the camera stands over the board, from the grid's homography, and the plane a tile's face lies on.
 *
 * A tile's face stands above the board (a quarter of a square for common wooden sets). Seen from above that does not
 * matter, but from the side of the table the face of a far tile is drawn over the square behind its own, and read
 * there. So tiles are read through the plane of their faces: the grid lifted by the tiles' height toward the camera.
 *
 * The pose is the planar one (Zhang 2000, as OpenCV's `decomposeHomographyMat` takes it, with the camera matrix
 * known): with the principal point at the picture's middle and square pixels, K⁻¹H = λ[r1 r2 t]. The focal length is
 * solved from the two conditions r1·r2 = 0 and |r1| = |r2|, in least squares; where the view is too near straight
 * above for that (both conditions vanish there), a phone's usual field of view stands in. Pure arithmetic, no OpenCV.
 */
import { gridHomography, project } from './homography.ts';
import type { Corners, Point } from './types.ts';

/** How high a tile's face stands above the board, in squares. The wooden tiles of the English (Hasbro/Mattel) sets
 *  are about 4.5 mm thick on squares of about 19 mm; German plastic tiles are about 3.5 mm on 18 mm. */
export const TILE_HEIGHT = 0.22;
/** The focal length used where it cannot be solved, as a share of the picture's longer side: a phone's main camera
 *  (about 26 mm equivalent, 69° across the long side). */
const FALLBACK_FOCAL = 0.75;
/** Views less tilted than this (degrees from straight above) are read on the board's plane: their faces' shift is a
 *  few hundredths of a square, less than the pose's own error there. */
const MIN_TILT = 20;
/** A solved focal length outside this range of the longer side is a degenerate solve, not a camera. */
const FOCAL_RANGE = [0.35, 4] as const;
/**
 * A focal length is trusted only where the grid's corners pin it down: solved again with each corner moved by this
 * share of a square along each axis (16 solves), every solve must stay within FOCAL_RANGE and within FOCAL_STEADY of
 * each other (the largest over the smallest). A grid's corners are found to about a twentieth of a square. On
 * jheidel-en's real phone photos (one phone; its well-posed grids solve to 0.55–0.72 of the longer side) three grids
 * solved to 1.6–2.5 of it, poses of 40–55° for views of 21–23°, and swung 1.8–2.0× (or out of the range) when so
 * moved; every other grid of the real sets swung at most 1.34× (jheidel-en 170755), every rendered seat view 1.01–1.02×.
 * Lifted by such a pose, 170317's tiles were read a third of a square off their faces: the model alone read 22 of
 * its 67 letters wrong, 11 on the board's plane (docs/measurements.md, "A focal length the corners do not pin down").
 * Such a pose is no pose for anything that needs one: no lift, no steep view's second reading, no rack (rack.ts).
 */
const FOCAL_NUDGE = 0.05;
const FOCAL_STEADY = 1.5;

export interface Pose {
  /** Focal length in pixels. */
  readonly focal: number;
  /** Whether `focal` was solved from the grid (else the fallback). */
  readonly solved: boolean;
  /** The camera's angle from straight above the board, in degrees. */
  readonly tilt: number;
  /** Rotation columns r1 (along a row), r2 (down a column), r3 (their cross product), and the translation, in squares. */
  readonly r1: readonly [number, number, number];
  readonly r2: readonly [number, number, number];
  readonly r3: readonly [number, number, number];
  readonly t: readonly [number, number, number];
  /** Distance from the camera to the board's plane, in squares. */
  readonly height: number;
}

type V3 = [number, number, number];
const dot = (a: readonly number[], b: readonly number[]) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
const norm = (a: readonly number[]) => Math.sqrt(dot(a, a));
const cross = (a: readonly number[], b: readonly number[]): V3 => [
  a[1]! * b[2]! - a[2]! * b[1]!,
  a[2]! * b[0]! - a[0]! * b[2]!,
  a[0]! * b[1]! - a[1]! * b[0]!,
];

/** The homography's three columns with the principal point (the picture's middle) moved to the origin. */
function centredColumns(h: Float64Array, size: { width: number; height: number }): [V3, V3, V3] {
  const cx = size.width / 2;
  const cy = size.height / 2;
  const col = (j: number): V3 => [h[j]! - cx * h[6 + j]!, h[3 + j]! - cy * h[6 + j]!, h[6 + j]!];
  return [col(0), col(1), col(2)];
}

/** The camera's pose over the board whose grid (15×15 squares) has these corners in a picture of this size. */
export function cameraPose(corners: Corners, size: { width: number; height: number }): Pose | undefined {
  const h = gridHomography(corners);
  if (!h.every(Number.isFinite)) return undefined;
  const [h1, h2, h3] = centredColumns(h, size);
  const long = Math.max(size.width, size.height);
  const f0 = solvedFocal(h, size);
  const solved = inFocalRange(f0, long) && steadyFocal(corners, size, f0);
  const focal = solved ? f0 : FALLBACK_FOCAL * long;
  const m1: V3 = [h1[0] / focal, h1[1] / focal, h1[2]];
  const m2: V3 = [h2[0] / focal, h2[1] / focal, h2[2]];
  const m3: V3 = [h3[0] / focal, h3[1] / focal, h3[2]];
  let lambda = 2 / (norm(m1) + norm(m2));
  // The board lies in front of the camera.
  if (m3[2] * lambda < 0) lambda = -lambda;
  const r1 = m1.map((v) => v * lambda) as V3;
  const r2 = m2.map((v) => v * lambda) as V3;
  const t = m3.map((v) => v * lambda) as V3;
  const r3 = cross(r1, r2);
  const n3 = norm(r3);
  if (!(n3 > 0)) return undefined;
  const r3n = r3.map((v) => v / n3) as V3;
  // The camera's optical axis is (0, 0, 1) in its own frame; the board's normal in that frame is r3.
  const tilt = (Math.acos(Math.min(1, Math.abs(r3n[2]))) * 180) / Math.PI;
  return { focal, solved, tilt, r1, r2, r3: r3n, t, height: Math.abs(dot(r3n, t)) };
}

/**
 * The focal length (pixels) that makes the grid's homography `h` a square seen through a camera whose principal point
 * is the picture's middle: with w = 1/f², a·w + b = 0 for orthogonality and for equal norms, in least squares over
 * both. NaN where no positive w solves them (a view too near straight above, or no square at all).
 */
function solvedFocal(h: Float64Array, size: { width: number; height: number }): number {
  if (!h.every(Number.isFinite)) return Number.NaN;
  const [h1, h2] = centredColumns(h, size);
  const rows: [number, number][] = [
    [h1[0] * h2[0] + h1[1] * h2[1], h1[2] * h2[2]],
    [h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2, h1[2] ** 2 - h2[2] ** 2],
  ];
  const aa = rows.reduce((s, [a]) => s + a * a, 0);
  const ab = rows.reduce((s, [a, b]) => s + a * b, 0);
  const w = aa > 0 ? -ab / aa : Number.NaN;
  return w > 0 ? 1 / Math.sqrt(w) : Number.NaN;
}

const inFocalRange = (f: number, long: number) =>
  Number.isFinite(f) && f >= FOCAL_RANGE[0] * long && f <= FOCAL_RANGE[1] * long;

/**
 * Whether the focal length `f` solved from `corners` stays put when each corner is moved by FOCAL_NUDGE of the
 * square beside it, along each axis: every such solve within FOCAL_RANGE, the largest at most FOCAL_STEADY times the
 * smallest (`f` among them).
 */
function steadyFocal(corners: Corners, size: { width: number; height: number }, f: number): boolean {
  const long = Math.max(size.width, size.height);
  let least = f;
  let most = f;
  for (let i = 0; i < 4; i++) {
    const at = corners[i]!;
    const next = corners[(i + 1) % 4]!;
    const before = corners[(i + 3) % 4]!;
    // The square at this corner: the mean of its two edges' fifteenths.
    const square =
      (Math.hypot(next[0] - at[0], next[1] - at[1]) + Math.hypot(before[0] - at[0], before[1] - at[1])) / 30;
    const by = FOCAL_NUDGE * square;
    for (const [dx, dy] of [
      [by, 0],
      [-by, 0],
      [0, by],
      [0, -by],
    ] as const) {
      const moved = corners.map((p, k) => (k === i ? [p[0] + dx, p[1] + dy] : p)) as unknown as Corners;
      const g = solvedFocal(gridHomography(moved), size);
      if (!inFocalRange(g, long)) return false;
      least = Math.min(least, g);
      most = Math.max(most, g);
    }
  }
  return most <= FOCAL_STEADY * least;
}

/** Focal lengths a camera may have, as a share of the picture's longer side: from an ultra-wide lens's to a 3× zoom's
 *  (a phone's main camera about 0.75: the rendered seat views' grids fit best at 0.5–0.9; a view from above fits
 *  any, its perspective too slight to tell). Not FOCAL_RANGE, which says when the pose's solved focal length is no
 *  camera at all; this says through which cameras a board's grid may be seen. */
const CAMERA_FOCALS = [0.3, 3] as const;
/** How far a grid may be from a right angle, in degrees, and its sides from equal, as a share (ln of their ratio),
 *  and still be a board's square grid. Grids on the board came to 0.73 of these at most (the 55° game's move 20:
 *  2.9° and 0.14 at its best focal length, its far corners a few pixels off; jheidel-en 170725: a real board's
 *  squares are not quite square, nor is a real camera's middle the picture's), skewed ones to 1.2 and more:
 *  docs/measurements.md, "A grid no camera could see". */
const SQUARE_ANGLE = 4;
const SQUARE_SIDES = 0.2;

/**
 * How far the grid with these corners is from a square seen through a camera: the least, over the focal lengths a
 * camera may have (principal point at the picture's middle), of the larger of its misfits from a right angle and
 * from equal sides, each as a share of what a board's grid may show (SQUARE_ANGLE, SQUARE_SIDES). Above 1, no
 * camera at the picture's middle sees the board's square so: a grid skewed across a half-full board seen from a
 * seat (its corners 2–7 squares off, along tiles' edges) measures 1.2–4.1; the grids found on the real photos and
 * renders, at most 0.73, except two a row off (1.5, 5.0).
 */
export function squareMisfit(corners: Corners, size: { width: number; height: number }): number {
  const h = gridHomography(corners);
  if (!h.every(Number.isFinite)) return Number.POSITIVE_INFINITY;
  const [h1, h2] = centredColumns(h, size);
  const long = Math.max(size.width, size.height);
  let least = Number.POSITIVE_INFINITY;
  // Steps of 1% over the focal range: the misfit changes smoothly with the focal length.
  const [lo, hi] = CAMERA_FOCALS.map(Math.log) as [number, number];
  for (let s = lo; s <= hi + 1e-9; s += (hi - lo) / 230) {
    const f = Math.exp(s) * long;
    const m1: V3 = [h1[0] / f, h1[1] / f, h1[2]];
    const m2: V3 = [h2[0] / f, h2[1] / f, h2[2]];
    const n1 = norm(m1);
    const n2 = norm(m2);
    const cos = Math.max(-1, Math.min(1, dot(m1, m2) / (n1 * n2)));
    const angle = Math.abs(90 - (Math.acos(cos) * 180) / Math.PI);
    const misfit = Math.max(angle / SQUARE_ANGLE, Math.abs(Math.log(n1 / n2)) / SQUARE_SIDES);
    if (misfit < least) least = misfit;
  }
  return least;
}

/**
 * The grid's corners as they would be drawn on the plane `lift` squares above the board, toward the camera: the
 * plane a tile's face lies on. The corners themselves when no pose can be had.
 */
export function liftedCorners(
  corners: Corners,
  size: { width: number; height: number },
  lift = TILE_HEIGHT,
  /** The grid's pose, where the caller has it already (`cameraPose` of the same corners and size). */
  pose: Pose | undefined = cameraPose(corners, size),
): Corners {
  // A view too near straight above to solve the focal length: the faces' shift is a small spread outward from the
  // picture's middle, of an unknown size (the camera's distance is unknown with it), so none is made. Nor under
  // MIN_TILT, where the pose rests on a hair of perspective (a grid's corners a pixel off tilt it by degrees).
  if (!pose || !(lift > 0) || !pose.solved || pose.tilt < MIN_TILT) return corners;
  // Toward the camera: the side of the board's plane the camera's centre (−Rᵀt) is on.
  const at = projector(pose, size);
  const lifted: Corners = [at(0, 0, lift), at(15, 0, lift), at(15, 15, lift), at(0, 15, lift)];
  // Sanity: the lifted grid stays near the board's (a wild pose would throw the reading off the board).
  const h = gridHomography(corners);
  const side0 = Math.hypot(
    ...(project(h, 15, 0).map((v, i) => v - project(h, 0, 0)[i]!) as [number, number]),
  );
  const moved = Math.max(...lifted.map((p, i) => Math.hypot(p[0] - corners[i]![0], p[1] - corners[i]![1])));
  if (!lifted.every((p) => Number.isFinite(p[0]) && Number.isFinite(p[1])) || moved > side0 / 15)
    return corners;
  return lifted;
}

/**
 * Where a place on or above the board is drawn in the picture: (u, v) in squares of the grid (0–15 across it, and
 * beyond), z squares up from the board toward the camera. NaN for a place behind the camera.
 */
export function projector(
  pose: Pose,
  size: { width: number; height: number },
): (u: number, v: number, z: number) => Point {
  // Toward the camera: the side of the board's plane the camera's centre (−Rᵀt) is on.
  const side = -dot(pose.r3, pose.t) >= 0 ? 1 : -1;
  const cx = size.width / 2;
  const cy = size.height / 2;
  return (u, v, z) => {
    const p = [0, 1, 2].map((i) => u * pose.r1[i]! + v * pose.r2[i]! + side * z * pose.r3[i]! + pose.t[i]!);
    if (!(p[2]! > 0)) return [Number.NaN, Number.NaN];
    return [(pose.focal * p[0]!) / p[2]! + cx, (pose.focal * p[1]!) / p[2]! + cy];
  };
}
