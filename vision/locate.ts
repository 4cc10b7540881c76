/**
 * Finds the 15×15 playing grid in a photo, with no markers and no clicks: candidate board outlines from edges,
 * each straightened and searched for the 16 equally spaced lines of a grid (boards have borders of different
 * widths, so the grid is found inside the outline, not assumed to be it), then the grid lines are refined band by
 * band and a homography is fitted to them. Knows nothing of letters.
 */
import { type CV, type Mat, opencv, withMats } from './cv.ts';
import { offPicture } from './geometry.ts';
import { candidateQuads, gridInQuad, grownQuad } from './grid-search.ts';
import { squareMisfit } from './pose.ts';
import { refinePasses, symmetricShift } from './refine.ts';
import { type Corners, mapCorners, type Point } from './types.ts';
import { gridByVanishingPoints } from './vanishing.ts';

export { apply, offPicture, orderCorners } from './geometry.ts';

/** Work size: the photo is scaled so its longer side is this many pixels for refining the grid. */
export const WORK = 640;
/** Black border added around the work image, as a fraction of its longer side. */
const PAD = 0.03;
/** A hint from the previous frame is kept when at least this share of its line segments is still seen. */
const HINT_SUPPORT = 0.5;
/**
 * A hint whose lines had to be followed further than this share of a square is stale: the camera or the board moved,
 * and the lines it settled on may be other lines of the same board (jheidel-en's first move, photographed from
 * another side than the empty board before it, was read through a grid a square off, every row of it "tiles"). The
 * whole picture is searched then. Measured against the square at each corner (seen from a seat the far squares are
 * half the near ones' size): the stale grid's corners went 0.4–0.6 of a square; a steady camera's, a pixel or two,
 * once 0.2 (the rendered seat game's near corner, when 66 squares changed).
 */
const HINT_DRIFT = 0.4;
/**
 * In the second search each outline is also tried grown by this share of its side: a grid must lie within its
 * outline, and from a seat the rack in front of the board, or the tiles on its near rows, cut the outline a row or
 * so inside the grid (a rendered seat view: the outline's near edge a row and a half in, its grid not found).
 */
const GROW = 0.08;
/** How many of the second search's best coarse grids are refined and judged again. */
const REFINED = 3;
/** The candidate search runs at half the work size. */
const SEARCH = 0.5;
/**
 * A best grid whose lines did not fit, or scoring under this, is looked for once more at the full work size, among
 * dense regions and through the vanishing points too (a board seen from a player's seat is small in the picture: its
 * far rows are a few pixels tall at half size, and a table's planks run into its outline).
 */
const CLEAR_GRID = 0.5;
/**
 * The second search's grid replaces a first one whose lines fitted only when it is twice as clear and at least this
 * clear; where the first search found no grid, or one whose lines never fitted (no board, either way, as it stands),
 * when twice as clear and at least CLEARER_THAN_NONE (so too where its one grid ran off the picture: passed over, that
 * is no grid to read, as none). Of the 14 real photos searched again, each with a fitted first
 * grid, the second search's best was at most 0.82 (docs/measurements.md, "The grid of a board seen from a seat"); a
 * rendered view at 70° whose first grid never fitted got its true grid at 0.84. With 0.6, none of 334 real photos
 * moved its grid (docs/measurements.md, "A board seen at 70°").
 */
const CLEARER = 1;
const CLEARER_THAN_NONE = 0.6;
/**
 * Where the first search's grid fitted its lines but was no square a camera could see (squareMisfit: skewed along a
 * half-full board's tiles' edges), there is a board, and the second search's is taken from this clear on: the game
 * seen at 62°, frames 16–22, their grids then at 0.41–0.59 (the lower ones a row off, then in doubt by the layout a
 * square away; docs/measurements.md, "A grid no camera could see"). Of the real photos only kwwangkw-en s28's first
 * grid is so (pulled a row onto the mat); its second search's grid runs off the picture, and no board is reported.
 */
const CLEARER_THAN_SKEWED = 0.45;

export interface Located {
  readonly corners: Corners;
  /** Where the whole picture's closer (second) search was made: its other grids, as `otherGrids` gives them. */
  readonly others?: readonly Located[];
  /** The first search's grid ran a whole square off the picture, and was passed over for this one. */
  readonly ranOff?: boolean;
  /** How grid-like the best candidate was: the contrast of its lines against the cell middles. */
  readonly score: number;
  /** Share of the grid's line segments (16 lines × 6 bands, both ways) that stand out where the grid puts them. */
  readonly support: number;
  /** Whether the grid lines were fitted at least once; if not, the grid is only the coarse search's guess. */
  readonly fitted: boolean;
  /** No grid but one whose lines fitted and that no camera could see the square board as (`squareMisfit`): that one,
   *  for the caller to say why there is no board. */
  readonly skewed?: boolean;
}

/**
 * The photo at work size in colour and grayscale, framed by a black border, and the factor from original to work
 * pixels. The border gives a grid that runs to the edge of the picture (a photo already cut to the grid) a line
 * to be found at its edge.
 */
function workImages(
  cv: CV,
  rgb: { width: number; height: number; data: Uint8Array },
  track: (m: Mat) => Mat,
) {
  const src = track(new cv.Mat(rgb.height, rgb.width, cv.CV_8UC3));
  src.data.set(rgb.data);
  const scale = Math.min(1, WORK / Math.max(rgb.width, rgb.height));
  let sized = src;
  if (scale < 1) {
    sized = track(new cv.Mat());
    const size = new cv.Size(Math.round(rgb.width * scale), Math.round(rgb.height * scale));
    cv.resize(src, sized, size, 0, 0, cv.INTER_AREA);
  }
  const pad = Math.round(PAD * Math.max(sized.cols, sized.rows));
  const colour = track(new cv.Mat());
  cv.copyMakeBorder(sized, colour, pad, pad, pad, pad, cv.BORDER_CONSTANT, new cv.Scalar(0, 0, 0, 255));
  const gray = track(new cv.Mat());
  cv.cvtColor(colour, gray, cv.COLOR_RGB2GRAY);
  return { colour, gray, scale, pad };
}

/**
 * Finds the grid in `rgb`. With `hint` (the corners found in the previous frame of a steady camera) it first
 * refines from there and keeps the result when the grid's lines are still where it says; otherwise, or without a
 * hint, it searches the whole picture.
 */
export function locateBoard(
  rgb: { width: number; height: number; data: Uint8Array },
  hint?: Corners,
  /** With a hint, only from the hint: no grid where its lines are no longer there (the whole picture is not searched
   *  then). Without one, the picture is searched all the same. */
  hintOnly = false,
): Located | undefined {
  const { found, others, searched, ranOff } = located(rgb, hint, hintOnly);
  return found && searched ? { ...found, others, ...(ranOff ? { ranOff } : {}) } : found;
}

/**
 * The other grids the whole picture's closer search finds (the second search of `locateBoard`, made whatever the
 * first found): each refined, its lines fitted, on the picture and a square a camera could see, at least OTHER_CLEAR
 * clear; the clearest first. For a caller that judged the grid `locateBoard` gave by what lies under it and found it
 * off the board (recognize.ts: a grid over a board's printed name panel, seen from a seat, whose own grid the second
 * search finds but was not clearer than the first by enough to replace it).
 */
export function otherGrids(rgb: { width: number; height: number; data: Uint8Array }): Located[] {
  return located(rgb, undefined, false, true).others;
}

/** A grid `otherGrids` gives must be at least this clear (the clearest of the 170746's wrong ones 0.30; its own 0.73). */
const OTHER_CLEAR = 0.45;

function located(
  rgb: { width: number; height: number; data: Uint8Array },
  hint: Corners | undefined,
  hintOnly: boolean,
  /** Only the second search's grids, every one kept (`otherGrids`). */
  othersOnly = false,
): { found: Located | undefined; others: Located[]; searched: boolean; ranOff: boolean } {
  const { cv } = opencv();
  const others: Located[] = [];
  /** Whether the closer search was made (and `others` holds its grids), and whether the first search's grid ran
   *  off the picture. */
  let searched = false;
  let ranOff = false;
  const found = withMats((track): Located | undefined => {
    const { colour, gray, scale, pad } = workImages(cv, rgb, track);
    const toWork = (p: Point): Point => [p[0] * scale + pad, p[1] * scale + pad];
    const toPhoto = (p: Point): Point => [(p[0] - pad) / scale, (p[1] - pad) / scale];
    let grid: Point[] = [];
    let support = 0;
    const refine = (passes: number, moreWhileStepping = 0) => {
      const done = refinePasses(cv, gray, grid, track, passes, moreWhileStepping);
      grid = done.grid;
      support = done.support;
      return done;
    };
    if (hint) {
      const start = hint.map(toWork);
      grid = start;
      const { fitted, stepped } = refine(2);
      // The board may have moved by a whole cell (the lines still fit) or more: the premium squares tell.
      // A hint that had to step towards its lines, or follow them far, is stale: the board has moved.
      // Each corner's drift in squares of its own edge along the rows (the top edge's, or the bottom's).
      const side = (a: number, b: number) =>
        Math.hypot(start[b]![0] - start[a]![0], start[b]![1] - start[a]![1]) / 15;
      const square = [side(0, 1), side(0, 1), side(3, 2), side(3, 2)];
      const drift = Math.max(
        ...grid.map((p, i) => Math.hypot(p[0] - start[i]![0], p[1] - start[i]![1]) / square[i]!),
      );
      if (
        fitted &&
        !stepped &&
        drift <= HINT_DRIFT &&
        support >= HINT_SUPPORT &&
        symmetricShift(cv, colour, grid, track) === grid
      )
        return { corners: mapCorners(grid, toPhoto), score: 1, support, fitted };
      if (hintOnly) return undefined;
    }
    const search = (at: number, dense: boolean) => {
      const small = track(new cv.Mat());
      const size = new cv.Size(Math.round(gray.cols * at), Math.round(gray.rows * at));
      cv.resize(gray, small, size, 0, 0, cv.INTER_AREA);
      const candidates: { grid: Point[]; score: number }[] = [];
      for (const quad of candidateQuads(cv, small, track, Math.round(pad * at), dense)) {
        for (const outline of dense ? [quad, grownQuad(cv, quad, GROW, track)] : [quad]) {
          const candidate = gridInQuad(cv, small, outline, track);
          if (!candidate) continue;
          // Outlines of different sizes are compared by how clear each grid is within its own outline.
          const score = dense ? (gridInQuad(cv, small, candidate.grid, track)?.score ?? 0) : candidate.score;
          candidates.push({ grid: candidate.grid, score });
        }
      }
      if (dense) {
        for (const candidate of gridByVanishingPoints(cv, small, track))
          candidates.push({
            grid: candidate.grid,
            score: gridInQuad(cv, small, candidate.grid, track)?.score ?? 0,
          });
      }
      candidates.sort((a, b) => b.score - a.score);
      // The best coarse grid, refined; in the second search the best few, each judged again once refined.
      let best: { grid: Point[]; score: number; support: number; fitted: boolean } | undefined;
      for (const candidate of candidates.slice(0, dense ? REFINED : 1)) {
        grid = candidate.grid.map(([x, y]) => [x / at, y / at] as Point);
        // A coarse grid several cells off (a board turned in the photo) steps half a cell a pass: three passes more.
        let fitted = refine(3, 3).anyFitted;
        const shifted = symmetricShift(cv, colour, grid, track);
        if (shifted !== grid) {
          grid = shifted;
          fitted = refine(3).anyFitted || fitted;
        }
        // A grid no camera could see the board's square as (skewed across a half-full board along its tiles'
        // edges, or pulled a row onto a striped border) is no board's, however clear its lines.
        if (squareMisfit(mapCorners(grid, toPhoto), rgb) > 1) {
          if (fitted) skewed ??= grid;
          continue;
        }
        const score = dense
          ? (gridInQuad(
              cv,
              small,
              grid.map(([x, y]) => [x * at, y * at] as Point),
              track,
            )?.score ?? 0)
          : candidate.score;
        // A grid running a whole square or more off the picture cannot be read (recognize.ts refuses it): it is
        // passed over for the next, and the second search made where the first had only such a grid (jheidel-en
        // 163920, a real photo from a corner: the first search's grid lay over the board's near half and the
        // tablecloth below it, and no board was reported; the second's is on the board, read perfectly). Where no
        // other is found, it is the one reported, for recognize.ts to say why (below).
        if (offPicture(mapCorners(grid, toPhoto), rgb) > 1) {
          if (fitted && dense) farOff ??= { grid, score, support, fitted };
          else if (fitted) offside ??= { grid, score, support, fitted };
          continue;
        }
        if (dense && fitted && score >= OTHER_CLEAR)
          others.push({ corners: mapCorners(grid, toPhoto), score, support, fitted });
        if (!best || (fitted && !best.fitted) || (fitted === best.fitted && score > best.score))
          best = { grid, score, support, fitted };
      }
      if (best) ({ grid, support } = best);
      return best;
    };
    /** The first fitted grid passed over as no square a camera could see. */
    let skewed: Point[] | undefined;
    /** The first fitted grid passed over as running off the picture, in the first search and in the second. */
    let offside: { grid: Point[]; score: number; support: number; fitted: boolean } | undefined;
    let farOff: typeof offside;
    searched = othersOnly;
    if (othersOnly) {
      search(1, true);
      return undefined;
    }
    let chosen = search(SEARCH, false);
    const firstSkewed = skewed !== undefined;
    ranOff = offside !== undefined;
    if (!(chosen?.fitted && chosen.score >= CLEAR_GRID)) {
      // Kept only when its lines fit and are far clearer. Measured with the grown outlines: 12 of the 36 seat views,
      // 1.24 and up, each then right; of the 14 real photos searched again, one (kwwangkw s2, 1.57, then right), the
      // others at most 0.82. docs/measurements.md, "The grid of a board seen from a seat" and "A grid that runs past
      // its outline".
      const again = search(1, true);
      searched = true;
      const floor = chosen?.fitted ? CLEARER : firstSkewed ? CLEARER_THAN_SKEWED : CLEARER_THAN_NONE;
      const clear = (g: typeof again) => g?.fitted && g.score >= Math.max(floor, 2 * (chosen?.score ?? 0));
      if (clear(again)) chosen = again;
      // Where nothing is found, a grid running off the picture is reported as found, for recognize.ts to refuse it
      // saying why: the first search's, or the second's where it would have been taken (a board partly out of view).
      else if (!chosen && !offside && clear(farOff)) chosen = farOff;
    }
    chosen ??= offside;
    if (!chosen)
      return (
        skewed && { corners: mapCorners(skewed, toPhoto), score: 0, support: 0, fitted: false, skewed: true }
      );
    ({ grid, support } = chosen);
    const { score, fitted } = chosen;
    return { corners: mapCorners(grid, toPhoto), score, support, fitted };
  });
  others.sort((a, b) => b.score - a.score);
  return { found, others, searched, ranOff };
}
