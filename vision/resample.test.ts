/**
 * The resampler draws what OpenCV's warpPerspective draws (INTER_LINEAR, BORDER_REPLICATE), pixel for pixel: the
 * grids found and the squares read stay exactly as they were with OpenCV's warp.
 */
import { describe, expect, it } from 'vitest';
import { random } from '../test/helpers.ts';
import { opencv, withMats } from './cv.ts';
import { warpMat, warpParts } from './geometry.ts';
import { resample } from './resample.ts';

/**
 * Straightens `trials` random quads of random pictures with both, and counts the bytes that differ. `off` gives a
 * corner's offset from the picture's corner, as a share of its side (negative: outside the picture).
 */
function compareWithOpenCV(seed: number, trials: number, off: (rnd: () => number) => number) {
  const { cv } = opencv();
  const rnd = random(seed);
  let compared = 0;
  let differ = 0;
  withMats((track) => {
    for (let trial = 0; trial < trials; trial++) {
      const channels = trial % 2 === 0 ? 1 : 3;
      const [w, h] = [40 + Math.floor(rnd() * 200), 40 + Math.floor(rnd() * 200)];
      const src = track(new cv.Mat(h, w, channels === 1 ? cv.CV_8UC1 : cv.CV_8UC3));
      // Smooth shapes and noise: both fine steps of the weights and whole-pixel jumps are exercised.
      const data = src.data as Uint8Array;
      for (let i = 0; i < data.length; i++)
        data[i] = Math.max(0, Math.min(255, Math.round(128 + 90 * Math.sin(i / 23) + 40 * (rnd() - 0.5))));
      const quad = [
        [off(rnd) * w, off(rnd) * h],
        [w * (1 - off(rnd)), off(rnd) * h],
        [w * (1 - off(rnd)), h * (1 - off(rnd))],
        [off(rnd) * w, h * (1 - off(rnd))],
      ];
      // The first few outputs short and wide: OpenCV's blocks are then wider than 64 pixels.
      const [ow, oh] =
        trial < 4
          ? [100 + 70 * trial, [3, 8, 10, 15][trial]!]
          : [30 + Math.floor(rnd() * 300), 30 + Math.floor(rnd() * 300)];
      const to = [
        [0, 0],
        [ow - 1, 0],
        [ow - 1, oh - 1],
        [0, oh - 1],
      ];
      const H = track(
        cv.getPerspectiveTransform(
          track(cv.matFromArray(4, 1, cv.CV_32FC2, quad.flat())),
          track(cv.matFromArray(4, 1, cv.CV_32FC2, to.flat())),
        ),
      );
      const theirs = track(new cv.Mat());
      cv.warpPerspective(src, theirs, H, new cv.Size(ow, oh), cv.INTER_LINEAR, cv.BORDER_REPLICATE);
      const ours = warpMat(cv, src, H, ow, oh, track);
      expect([ours.rows, ours.cols, ours.channels()]).toEqual([oh, ow, channels]);
      const a = theirs.data as Uint8Array;
      const b = ours.data as Uint8Array;
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differ++;
      compared += a.length;
    }
  });
  return { compared, differ };
}

describe('resample', () => {
  it('draws what cv.warpPerspective draws from a quad inside the picture (its spans drawn without edge tests)', () => {
    // Corners 3–20% inside the picture, and skewed: the perspective is strong, and the spans lie a pixel inside the
    // picture but in the smallest pictures (under about 70 px a side), whose outer spans take the edge tests.
    const { compared, differ } = compareWithOpenCV(11, 24, (rnd) => 0.03 + 0.17 * rnd());
    expect(differ).toBe(0);
    expect(compared).toBeGreaterThan(100_000);
  });

  it('draws what cv.warpPerspective draws across the horizon (points behind the camera), without a crash', () => {
    const { cv } = opencv();
    withMats((track) => {
      const src = track(new cv.Mat(60, 80, cv.CV_8UC3));
      const data = src.data as Uint8Array;
      for (let i = 0; i < data.length; i++) data[i] = (i * 37) % 251;
      // The output's middle rows and columns map to infinity: the denominator changes sign inside rows.
      const H = track(cv.matFromArray(3, 3, cv.CV_64F, [1, 0, -20, 0, 1, -15, 0.02, 0.015, -1]));
      const theirs = track(new cv.Mat());
      cv.warpPerspective(src, theirs, H, new cv.Size(120, 90), cv.INTER_LINEAR, cv.BORDER_REPLICATE);
      const ours = warpMat(cv, src, H, 120, 90, track);
      const a = theirs.data as Uint8Array;
      const b = ours.data as Uint8Array;
      let differ = 0;
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differ++;
      expect(differ).toBe(0);
    });
  });

  it('draws what cv.warpPerspective draws, edges, the picture beyond them and perspective included', () => {
    // A quad partly outside the picture (up to a fifth of it), straightened onto an output of another size.
    const { compared, differ } = compareWithOpenCV(7, 24, (rnd) => (rnd() - 0.3) * 0.4);
    expect(differ).toBe(0);
    expect(compared).toBeGreaterThan(100_000);
  });

  it('refuses a Mat it cannot read as OpenCV would (four channels, floats)', () => {
    const { cv } = opencv();
    withMats((track) => {
      const H = track(cv.matFromArray(3, 3, cv.CV_64F, [1, 0, 0, 0, 1, 0, 0, 0, 1]));
      for (const type of [cv.CV_8UC4, cv.CV_32FC1])
        expect(() => warpMat(cv, track(new cv.Mat(20, 20, type)), H, 10, 10, track)).toThrow(TypeError);
    });
  });

  it('refuses a source smaller than it says, and an output too small for what it is to hold', () => {
    const identity = [1, 0, 0, 0, 1, 0, 0, 0, 1];
    expect(() => resample({ width: 10, height: 10, data: new Uint8Array(50) }, 1, identity, 5, 5)).toThrow(
      RangeError,
    );
    const src = { width: 10, height: 10, data: new Uint8Array(300).map((_, i) => i) };
    expect(() => resample(src, 3, identity, 5, 5, new Uint8Array(74))).toThrow(RangeError);
    // Drawn into the array given: the same pixels as into a new one.
    const into = new Uint8Array(75);
    expect(resample(src, 3, identity, 5, 5, into)).toBe(into);
    expect([...into]).toEqual([...resample(src, 3, identity, 5, 5)]);
  });
});

describe('warpParts', () => {
  it('draws the rows and spans asked for as warpMat draws them, and nothing else', () => {
    const { cv } = opencv();
    const rnd = random(11);
    withMats((track) => {
      for (const channels of [1, 3] as const) {
        const [w, h] = [150, 120];
        const src = track(new cv.Mat(h, w, channels === 1 ? cv.CV_8UC1 : cv.CV_8UC3));
        const data = src.data as Uint8Array;
        for (let i = 0; i < data.length; i++) data[i] = Math.floor(rnd() * 256);
        const quad = [5, 8, 140, 2, 146, 115, 1, 110];
        const H = track(
          cv.getPerspectiveTransform(
            track(cv.matFromArray(4, 1, cv.CV_32FC2, quad)),
            track(cv.matFromArray(4, 1, cv.CV_32FC2, [0, 0, 96, 0, 96, 96, 0, 96])),
          ),
        );
        const whole = warpMat(cv, src, H, 96, 96, track).data as Uint8Array;
        const rows = [0, 3, 4, 50, 95];
        const spans = [
          [0, 5],
          [30, 31],
          [64, 96],
        ] as const;
        const parts = warpParts(cv, src, H, 96, 96, rows, spans, track);
        for (let y = 0; y < 96; y++)
          for (let x = 0; x < 96; x++) {
            const drawn = rows.includes(y) && spans.some(([a, b]) => x >= a && x < b);
            for (let ch = 0; ch < channels; ch++) {
              const i = (y * 96 + x) * channels + ch;
              expect(parts[i], `${x},${y}`).toBe(drawn ? whole[i] : 0);
            }
          }
        // As the premium-layout check asks (refine.ts): the middles of 12-px squares, spans across the 64-px blocks
        // in which OpenCV computes each row's terms anew; and every row whole.
        const side = 276;
        const Hc = track(
          cv.getPerspectiveTransform(
            track(cv.matFromArray(4, 1, cv.CV_32FC2, quad)),
            track(cv.matFromArray(4, 1, cv.CV_32FC2, [0, 0, side, 0, side, side, 0, side])),
          ),
        );
        const full = warpMat(cv, src, Hc, side, side, track).data as Uint8Array;
        const middles = Array.from({ length: side / 12 }, (_, c) => [c * 12 + 3, c * 12 + 9] as const);
        const middleRows = Array.from({ length: side }, (_, y) => y).filter((y) => y % 12 >= 3 && y % 12 < 9);
        const drawn = warpParts(cv, src, Hc, side, side, middleRows, middles, track);
        let compared = 0;
        for (const y of middleRows)
          for (const [a, b] of middles)
            for (let i = (y * side + a) * channels; i < (y * side + b) * channels; i++, compared++)
              if (drawn[i] !== full[i]) expect(`${drawn[i]} at byte ${i}`).toBe(`${full[i]}`);
        expect(compared).toBe(middleRows.length * middles.length * 6 * channels);
        const everything = Array.from({ length: side }, (_, y) => y);
        expect(
          Buffer.compare(
            Buffer.from(warpParts(cv, src, Hc, side, side, everything, [[0, side]], track)),
            Buffer.from(full),
          ),
        ).toBe(0);
        expect(() => warpParts(cv, src, H, 96, 96, [96], spans, track)).toThrow(RangeError);
        expect(() => warpParts(cv, src, H, 96.5, 96, rows, spans, track)).toThrow(RangeError);
        expect(() => warpParts(cv, src, H, 96, 96, rows, [[5, 97]], track)).toThrow(RangeError);
      }
    });
  });
});
