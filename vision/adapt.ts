/**
 * Learning the tile set being played, from the game's own tiles: every square the game has committed is a
 * labelled example of how this set's tiles (and this board's empty squares) look to the model. From them a
 * log-weight per reading is fitted — a per-game bias on the model's scores, the model itself unchanged — by
 * maximising the likelihood of the examples' labels (softmax over the biased log-scores), with an L2 pull to zero
 * so that a few examples move little. A font the model never saw, whose I the model reads as half L, gets I raised
 * and L lowered. Pure.
 */

/** A square whose truth is known: the model's raw scores for each reading of `keys`, and the reading it holds. */
export interface Example {
  readonly scores: readonly number[];
  readonly label: string;
}

export interface FitOptions {
  /** Gradient steps. */
  readonly steps?: number;
  /** The L2 pull towards no bias, per example. */
  readonly pull?: number;
}

const FLOOR = 1e-6;

/** The bias per reading (only readings seen in the examples, or whose weight moved, are in the map). */
export function fitBias(
  keys: readonly string[],
  examples: readonly Example[],
  { steps = 200, pull = 0.02 }: FitOptions = {},
): Map<string, number> {
  const k = keys.length;
  const index = new Map(keys.map((key, i) => [key, i]));
  const rows = examples.flatMap((e) => {
    const y = index.get(e.label);
    return y === undefined ? [] : [{ logs: e.scores.map((v) => Math.log(Math.max(v, FLOOR))), y }];
  });
  const bias = new Float64Array(k);
  if (rows.length === 0) return new Map();
  const rate = 1;
  const grad = new Float64Array(k);
  const q = new Float64Array(k);
  for (let step = 0; step < steps; step++) {
    grad.fill(0);
    for (const { logs, y } of rows) {
      let max = -Infinity;
      for (let j = 0; j < k; j++) {
        q[j] = logs[j]! + bias[j]!;
        max = Math.max(max, q[j]!);
      }
      let sum = 0;
      for (let j = 0; j < k; j++) {
        q[j] = Math.exp(q[j]! - max);
        sum += q[j]!;
      }
      for (let j = 0; j < k; j++) grad[j]! -= q[j]! / sum;
      grad[y]! += 1;
    }
    for (let j = 0; j < k; j++) bias[j]! += rate * (grad[j]! / rows.length - pull * bias[j]!);
  }
  const out = new Map<string, number>();
  keys.forEach((key, j) => {
    if (Math.abs(bias[j]!) > 1e-3) out.set(key, bias[j]!);
  });
  return out;
}
