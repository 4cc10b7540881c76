/**
 * `npm run bench:leaves`: leave values fitted by the move generator's self-play, and measured head to head.
 *
 * 1. `--games` games (default 2,000) of the default English list, both players choosing by the leave values in use
 *    (`server/engine/movegen/equity.ts`).
 * 2. For each play or exchange made while the bag still held a rackful after the draw, what the same player's next
 *    turn brought, against the leave kept: its score, and (`--target equity`, the default) the value in use of what
 *    they kept then, while tiles were left to draw, so that a leave's worth beyond one turn counts too
 *    (`--target score`: the score alone). A least-squares fit (a small ridge, λ = 1) of those points
 *    on the leave's features, in equity.ts's own form: each tile's count (the blank one of them), the tiles beyond a
 *    letter's first (vowels and consonants apart), and the vowels and consonants out of balance. The fitted value of a
 *    leave is what it adds to the next turn against keeping nothing.
 * 3. `--match` pairs of games (default 1,000), the fitted values against those in use, each pair on one shuffled bag
 *    with the seats swapped: the mean spread per game, its standard error, and the games won.
 * With `--write FILE` the fitted values are written as JSON, in `LeaveTable`'s form. Seeded: the same figures every
 * run. The values in use are the hand-set ones (`HAND_SET`): fitted so, they come out nearly the same and play no
 * better (docs/measurements.md).
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Matrix, solve } from 'ml-matrix';
import { isVowel, makeRules, tileSets } from '../engine/index.ts';
import { HAND_SET, type LeaveTable, leaveValue, leaveValueBy } from '../engine/movegen/equity.ts';
import { type LeaveValues, selfPlay } from '../engine/movegen/selfplay.ts';
import { DEFAULT_LEXICON, lexiconDawg } from '../lexicon/index.ts';
import { seeded } from './corpus.ts';

const { values: args } = parseArgs({
  options: {
    games: { type: 'string', default: '2000' },
    match: { type: 'string', default: '1000' },
    write: { type: 'string' },
    target: { type: 'string', default: 'equity' },
  },
});
const games = Number(args.games);
const match = Number(args.match);
if (!Number.isInteger(games) || games < 10 || !Number.isInteger(match) || match < 1)
  throw new Error('--games must be a whole number from 10, --match from 1');
if (args.target !== 'equity' && args.target !== 'score') throw new Error('--target must be equity or score');

const set = tileSets.en;
const rules = makeRules({ lang: 'en' });
const loaded = await lexiconDawg(DEFAULT_LEXICON, set);
if (!loaded.ok) throw new Error(loaded.message);
const dawg = loaded.dawg;
const inUse: LeaveValues = (leave) => leaveValue(leave, set);

// 1–2: self-play, and the samples.
const tiles = ['?', ...set.letters.map(([l]) => l)];
const features = (leave: string): number[] => {
  const f = new Array<number>(tiles.length + 3).fill(0);
  const counts = new Map<string, number>();
  let vowels = 0;
  let consonants = 0;
  for (const t of leave) {
    f[tiles.indexOf(t)]!++;
    const before = counts.get(t) ?? 0;
    counts.set(t, before + 1);
    if (t === '?') continue;
    const vowel = isVowel(set, t);
    if (vowel) vowels++;
    else consonants++;
    if (before > 0) f[tiles.length + (vowel ? 0 : 1)]!++;
  }
  f[tiles.length + 2] = Math.max(0, Math.abs(vowels - consonants) - 1);
  return f;
};
const t0 = performance.now();
const random = seeded(2026);
const xs: number[][] = [];
const ys: number[] = [];
let turns = 0;
for (let g = 0; g < games; g++) {
  const game = selfPlay(dawg, rules, [inUse, inUse], random);
  turns += game.turns.length;
  game.turns.forEach((t, k) => {
    const next = game.turns[k + 2];
    if (t.kind === 'pass' || t.bag < rules.rackSize || !next) return;
    xs.push(features(t.leave));
    // The next turn's score, and (`equity`) the value in use of what was kept then, while tiles were left to draw.
    ys.push(next.score + (args.target === 'equity' && next.bag > 0 ? inUse(next.leave) : 0));
  });
}
const selfMs = performance.now() - t0;
console.log(
  `${games} self-play games (${(turns / games).toFixed(1)} turns a game, ${(selfMs / games).toFixed(0)} ms a game); ${xs.length} leaves kept with a rackful left in the bag`,
);

// Ridge least squares with an intercept (not penalised): (XᵀX + λI) w = Xᵀy, solved by ml-matrix.
const x = new Matrix(xs.map((row) => [1, ...row]));
const xt = x.transpose();
const normal = xt.mmul(x);
for (let r = 1; r < normal.rows; r++) normal.set(r, r, normal.get(r, r) + 1);
const w = solve(normal, xt.mmul(Matrix.columnVector(ys))).getColumn(0);
const round = (x: number) => Math.round(x * 10) / 10;
const fitted: LeaveTable = {
  tiles: Object.fromEntries(tiles.map((t, k) => [t, round(w[1 + k]!)])),
  duplicate: { vowel: round(-w[1 + tiles.length]!), consonant: round(-w[2 + tiles.length]!) },
  imbalance: round(-w[3 + tiles.length]!),
};
console.log(`next turn scored ${round(w[0]!)} points with nothing kept; fitted values:`);
console.log(
  `  tiles ${tiles.map((t) => `${t} ${fitted.tiles[t]} (${HAND_SET.tiles[t] ?? 0})`).join(', ')}  [fitted (in use)]`,
);
console.log(
  `  each tile beyond a letter's first: vowel −${fitted.duplicate.vowel}, consonant −${fitted.duplicate.consonant}; each vowel or consonant beyond one more than the other kind −${fitted.imbalance}`,
);

// 3: head to head.
const candidate: LeaveValues = (leave) => leaveValueBy(fitted, leave, set);
const matchRandom = seeded(7);
const spreads: number[] = [];
let won = 0;
let drawn = 0;
for (let g = 0; g < match; g++) {
  const seed = Math.floor(matchRandom() * 2 ** 31);
  for (const seat of [0, 1] as const) {
    const players: [LeaveValues, LeaveValues] = seat === 0 ? [candidate, inUse] : [inUse, candidate];
    const { scores } = selfPlay(dawg, rules, players, seeded(seed));
    const spread = seat === 0 ? scores[0] - scores[1] : scores[1] - scores[0];
    spreads.push(spread);
    if (spread > 0) won++;
    else if (spread === 0) drawn++;
  }
}
const mean = spreads.reduce((s, x) => s + x, 0) / spreads.length;
const sd = Math.sqrt(spreads.reduce((s, x) => s + (x - mean) ** 2, 0) / (spreads.length - 1));
console.log(
  `\nfitted against in use, ${spreads.length} games (${match} bags, each with the seats swapped): mean spread ${mean >= 0 ? '+' : ''}${mean.toFixed(1)} ± ${(sd / Math.sqrt(spreads.length)).toFixed(1)} (standard error) points a game; won ${won}, drawn ${drawn}, lost ${spreads.length - won - drawn} (${((100 * (won + drawn / 2)) / spreads.length).toFixed(1)}%)`,
);
if (args.write) {
  const table = {
    about: `Leave values fitted by self-play: npm run bench:leaves -- --games ${games} --write (${xs.length} leaves); against the hand-set values, ${spreads.length} games: mean spread ${mean.toFixed(1)} ± ${(sd / Math.sqrt(spreads.length)).toFixed(1)}, ${((100 * (won + drawn / 2)) / spreads.length).toFixed(1)}% won.`,
    ...fitted,
  };
  writeFileSync(args.write, `${JSON.stringify(table, null, 2)}\n`);
  console.log(`written to ${args.write}`);
}
