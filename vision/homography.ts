/**
 * The board's grid mapped onto a photo: the homography from grid coordinates (0–15 on each axis, x along a row) to
 * the photo's pixels, from the grid's four corners there (top-left, top-right, bottom-right, bottom-left). Pure and
 * free of OpenCV: the vision and the pages (zooming a held square) both use it.
 */

/** Solves the 8×8 system (`solveLinear`); all NaN when the corners are degenerate. */
export function gridHomography(corners: readonly (readonly [number, number])[]): Float64Array {
  const grid = [
    [0, 0],
    [15, 0],
    [15, 15],
    [0, 15],
  ] as const;
  const h = new Float64Array(9);
  if (corners.length !== 4) return h.fill(Number.NaN);
  const a: number[][] = [];
  for (let k = 0; k < 4; k++) {
    const [u, v] = grid[k]!;
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
