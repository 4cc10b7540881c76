/**
 * Board layouts: the premium squares of a board. The layouts themselves are data files, `data/layouts/*.json`
 * (format in `data/README.md`), shared with the training renderer; this module checks them once at load and owns
 * the lookups only.
 */

import standardJson from './data/layouts/standard.json' with { type: 'json' };
import { checkLayout } from './data-check.ts';

/** Premium of one square: letter ×2/×3, word ×2/×3, or none. */
export interface Premium {
  readonly letter: 1 | 2 | 3;
  readonly word: 1 | 2 | 3;
}

export interface Layout {
  readonly id: string;
  readonly size: number;
  /** Row-major premium map, one string per row: `T` triple word, `D` double word, `t` triple letter,
   *  `d` double letter, `.` plain. The centre star is a double word square. */
  readonly rows: readonly string[];
  /** The square the first move must cover, 0-based `[row, col]`. */
  readonly start: readonly [number, number];
}

/** The standard 15×15 Scrabble board. (`@__PURE__`: a bundle that never uses it leaves it out.) */
export const standardLayout: Layout = /* @__PURE__ */ checkLayout(standardJson, 'layouts/standard.json');

const PREMIUMS: Record<string, Premium> = {
  '.': { letter: 1, word: 1 },
  d: { letter: 2, word: 1 },
  t: { letter: 3, word: 1 },
  D: { letter: 1, word: 2 },
  T: { letter: 1, word: 3 },
};

/** Premium of the square at 0-based `row`, `col`. */
export function premiumAt(layout: Layout, row: number, col: number): Premium {
  const code = layout.rows[row]?.[col];
  const premium = code === undefined ? undefined : PREMIUMS[code];
  if (!premium) throw new RangeError(`square ${row},${col} is outside layout ${layout.id}`);
  return premium;
}
