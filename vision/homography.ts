/**
 * The board's grid mapped onto a photo: the homography from grid coordinates (0–15 on each axis, x along a row) to
 * the photo's pixels, from the grid's four corners there (top-left, top-right, bottom-right, bottom-left). Pure and
 * free of OpenCV: the vision and the pages (zooming a held square) both use it.
 */

/** The grid's corners in its own coordinates, in the order a grid's corners are given. */
const GRID_CORNERS = [
  [0, 0],
  [15, 0],
  [15, 15],
  [0, 15],
] as const;

/** Solves the 8×8 system (`solveLinear`); all NaN when the corners are degenerate. */
export function gridHomography(corners: readonly (readonly [number, number])[]): Float64Array {
  const h = new Float64Array(9);
  if (corners.length !== 4) return h.fill(Number.NaN);
  const a: number[][] = [];
  for (let k = 0; k < 4; k++) {
    const [u, v] = GRID_CORNERS[k]!;
    const [x, y] = corners[k]!;
    a.push([u, v, 1, 0, 0, 0, -u * x, -v * x, x]);
    a.push([0, 0, 0, u, v, 1, -u * y, -v * y, y]);
  }
  const solved = solveLinear(a, 1e-12);
  if (!solved) return h.fill(Number.NaN);
  h.set(solved);
  h[8] = 1;
  return h;
}

/**
 * Solves the n×n system whose augmented rows (n + 1 values each, the right-hand side last) are `a`, by Gauss–Jordan
 * elimination with partial pivoting, in place; undefined when a pivot is under `tiny` (the system is degenerate).
 */
export function solveLinear(a: number[][], tiny: number): number[] | undefined {
  const n = a.length;
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let row = col + 1; row < n; row++)
      if (Math.abs(a[row]![col]!) > Math.abs(a[pivot]![col]!)) pivot = row;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    if (Math.abs(a[col]![col]!) < tiny) return undefined;
    for (let row = 0; row < n; row++) {
      if (row === col) continue;
      const f = a[row]![col]! / a[col]![col]!;
      for (let k = col; k <= n; k++) a[row]![k]! -= f * a[col]![k]!;
    }
  }
  return a.map((row, k) => row[n]! / row[k]!);
}

/** Grid point (u, v) in the photo's pixels. */
export function project(h: Float64Array, u: number, v: number): [number, number] {
  const w = h[6]! * u + h[7]! * v + h[8]!;
  return [(h[0]! * u + h[1]! * v + h[2]!) / w, (h[3]! * u + h[4]! * v + h[5]!) / w];
}

/** The grid point (u, v) a photo pixel lies on: `project` undone. NaN where `h` is degenerate. */
export function unproject(h: Float64Array, x: number, y: number): [number, number] {
  // The inverse of a 3×3 matrix by its adjugate (the determinant cancels in the division by w).
  const [a, b, c, d, e, f, g, k, l] = h as unknown as number[];
  const w = (d! * k! - e! * g!) * x + (b! * g! - a! * k!) * y + (a! * e! - b! * d!);
  return [
    ((e! * l! - f! * k!) * x + (c! * k! - b! * l!) * y + (b! * f! - c! * e!)) / w,
    ((f! * g! - d! * l!) * x + (a! * l! - c! * g!) * y + (c! * d! - a! * f!)) / w,
  ];
}

/**
 * How far the corners `to` lie from the grid `from`'s own corners (both as `gridHomography` takes them), the
 * farthest, in squares of `from` where each lies, both ways: seen from a seat a far row is a third as tall as it is
 * wide, and a corner gone a row out there is a whole square, not a third of one.
 */
export function cornersMoved(
  from: readonly (readonly [number, number])[],
  to: readonly (readonly [number, number])[],
): number {
  return Math.max(...cornerShifts(from, to));
}

/** How far each of the corners `to` lies from the grid `from`'s own corner of the same place, in squares of `from`
 *  (`cornersMoved` is the farthest). */
export function cornerShifts(
  from: readonly (readonly [number, number])[],
  to: readonly (readonly [number, number])[],
): number[] {
  const h = gridHomography(from);
  return to.map(([x, y], i) => {
    const [u, v] = unproject(h, x, y);
    return Math.hypot(u - GRID_CORNERS[i]![0], v - GRID_CORNERS[i]![1]);
  });
}
