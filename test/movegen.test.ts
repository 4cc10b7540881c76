/**
 * The move generator on real positions: every recorded turn of the English games in ../shared/corpus/gcg with its
 * recorded rack, and every third one again with a rack drawn from the tiles unseen there (more blanks, more letters
 * the players did not hold), against the brute-force reference (every word of the default list tried at every
 * square, kept by the engine's own checks and scored by score.ts): identical plays, identical scores.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  corpusRecords,
  type RackPosition,
  rackPositions,
  twoBlankPositions,
} from '../server/bench/corpus.ts';
import {
  analyzeRecord,
  type Board,
  checkPlacement,
  Dawg,
  EMPTY,
  emptyBoard,
  leaveValue,
  listPlays,
  makeRules,
  place,
  placementsOf,
  recordPositions,
  scorePlay,
  tileSets,
  tileValue,
  wordsFormed,
} from '../server/engine/index.ts';
import { playKey, referencePlays, referenceWords } from '../server/engine/movegen/brute.ts';
import { selfPlay } from '../server/engine/movegen/selfplay.ts';
import { random } from './helpers.ts';

const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const words = (
  JSON.parse(
    readFileSync(createRequire(import.meta.url).resolve('an-array-of-english-words'), 'utf8'),
  ) as string[]
).map((w) => w.toUpperCase());
const dawg = Dawg.build(A, words);

describe('the move generator against the brute-force reference', () => {
  let ref: ReturnType<typeof referenceWords> | undefined;
  /** Each position's plays generated and by brute force (the reference's words made once): where they differ, and
   *  how many plays were generated in all. */
  const compare = (positions: readonly RackPosition[]) => {
    ref ??= referenceWords(A, words);
    const wrong: string[] = [];
    let plays = 0;
    for (const p of positions) {
      const list = listPlays(p.board, p.rack, dawg, p.rules);
      const generated = new Map<string, number>();
      for (let i = 0; i < list.size; i++) generated.set(playKey(list.play(i).placements), list.score[i]!);
      plays += list.size;
      const reference = referencePlays(p.board, p.rack, ref, p.rules);
      const differ =
        generated.size !== list.size ||
        generated.size !== reference.size ||
        [...reference].some(([key, r]) => generated.get(key) !== r.score);
      if (differ)
        wrong.push(`${p.where} ${p.rack}: ${list.size} generated, ${reference.size} by brute force`);
    }
    return { wrong, plays };
  };

  it('finds exactly the same plays with the same scores on over 1,000 corpus positions', () => {
    const positions = rackPositions(corpusRecords(), random(2026), 3);
    expect(positions.length).toBeGreaterThanOrEqual(1000);
    const { wrong, plays } = compare(positions);
    expect(wrong).toEqual([]);
    expect(plays).toBeGreaterThan(100_000);
  }, 900_000);

  it('finds exactly the same plays with the same scores for racks with two blanks', () => {
    // The search settles which tiles are blanks only when it records a play (generate.ts): each word must come out
    // once for every way the rack can put it down, and none twice.
    const positions = twoBlankPositions(corpusRecords(), random(46), 17, 25);
    expect(positions.length).toBe(25);
    const { wrong, plays } = compare(positions);
    expect(wrong).toEqual([]);
    expect(plays).toBeGreaterThan(200_000);
  }, 900_000);

  it('generates every recorded play whose words are all in the lexicon, with the score the engine gives it', () => {
    let valid = 0;
    let ranked = 0;
    for (const { document } of corpusRecords()) {
      const analysed = analyzeRecord(document, dawg);
      if (!analysed.ok || analysed.lang !== 'en') continue;
      for (const t of analysed.turns) {
        // A rack that lacks a tile the play put down (the quackle test positions pair racks and plays freely) has no
        // such play among its own.
        if (t.rack === null || !t.rackHolds || t.played.position === '' || !t.played.valid) continue;
        valid++;
        if (t.played.rank !== null) ranked++;
        else expect.soft(t, `${t.player} turn ${t.turn}`).toBeUndefined();
      }
    }
    expect(valid).toBeGreaterThan(300);
    expect(ranked).toBe(valid);
    // And the generator's score of each such play is the engine's (score.ts, through the replay).
    let compared = 0;
    for (const { document } of corpusRecords()) {
      const found = recordPositions(document);
      if (!found.ok || found.lang !== 'en') continue;
      for (const { entry, board, rules } of found.positions) {
        if (entry.kind !== 'play' || !entry.rack) continue;
        const placed = placementsOf(entry, board);
        if (!placed.ok) continue;
        const key = playKey(placed.placements);
        const list = listPlays(board, entry.rack.toUpperCase(), dawg, rules);
        const i = Array.from({ length: list.size }, (_, k) => k).find(
          (k) => playKey(list.play(k).placements) === key,
        );
        if (i === undefined) continue;
        const legal = checkPlacement(board, placed.placements, rules.layout);
        if (!legal.ok) continue;
        const after = place(board, placed.placements);
        expect(list.score[i], `${entry.word} at line ${entry.line}`).toBe(
          scorePlay(after, placed.placements, legal.direction, rules).score,
        );
        compared++;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(ranked);
  }, 300_000);
});

describe('self-play (the leave values’ fitting, npm run bench:leaves)', () => {
  it('plays whole games of legal plays, each scored as the engine scores it, every word in the lexicon', () => {
    const rules = makeRules({ lang: 'en' });
    const hand = (leave: string) => leaveValue(leave, tileSets.en);
    const letters = (board: Board) => board.cells.filter((c) => c !== EMPTY).length;
    for (const seed of [1, 2, 3]) {
      const game = selfPlay(dawg, rules, [hand, hand], random(seed));
      let board = emptyBoard(rules.layout);
      const totals = [0, 0];
      for (const turn of game.turns) {
        totals[turn.player]! += turn.score;
        if (turn.kind !== 'play') {
          expect(turn.score).toBe(0);
          continue;
        }
        const placements = turn.placements!;
        const checked = checkPlacement(board, placements, rules.layout);
        expect(checked.ok, `seed ${seed}: ${JSON.stringify(placements)}`).toBe(true);
        if (!checked.ok) return;
        board = place(board, placements);
        expect(scorePlay(board, placements, checked.direction, rules).score).toBe(turn.score);
        for (const span of wordsFormed(board, placements, checked.direction)) {
          const word = span.squares
            .map((s) => board.cells[s.row * board.size + s.col]!.toUpperCase())
            .join('');
          expect(dawg.has(word), word).toBe(true);
        }
        // The tiles played came from the rack: the leave is the rack less them (a lowercase tile is a blank).
        const rack = [...turn.rack];
        for (const p of placements)
          rack.splice(rack.indexOf(p.tile === p.tile.toUpperCase() ? p.tile : '?'), 1);
        expect(rack.sort().join('')).toBe(turn.leave);
      }
      expect(board).toEqual(game.board);
      // Every tile is on the board or on a rack, or still in the bag (at most a rackful when the game ends otherwise
      // than by a player going out).
      const left = game.racks[0].length + game.racks[1].length;
      expect(letters(board) + left).toBeLessThanOrEqual(100);
      if (game.racks.some((r) => r.length === 0)) expect(letters(board) + left).toBe(100);
      // The final scores: the turns' points and the racks left settled.
      const points = (rack: string) => [...rack].reduce((s, t) => s + (tileValue(tileSets.en, t) ?? 0), 0);
      const settled =
        game.racks[0].length === 0
          ? [totals[0]! + points(game.racks[1]), totals[1]! - points(game.racks[1])]
          : game.racks[1].length === 0
            ? [totals[0]! - points(game.racks[0]), totals[1]! + points(game.racks[0])]
            : [totals[0]! - points(game.racks[0]), totals[1]! - points(game.racks[1])];
      expect(game.scores).toEqual(settled);
      expect(game.turns.length).toBeGreaterThan(10);
    }
  }, 120_000);
});
