import { describe, expect, it } from 'vitest';
import {
  type Board,
  diagnose,
  emptyBoard,
  explainAnnounced,
  explainMove,
  inferMove,
  makeRules,
  type Placement,
  parseAnnounced,
  place,
} from './index.ts';

const rules = makeRules();

/** Places `word` from `start` (0-based) along `direction` on `board`, skipping squares already filled. */
function play(board: Board, word: string, row: number, col: number, across = true): Board {
  const placements: Placement[] = [];
  [...word].forEach((tile, k) => {
    const r = across ? row : row + k;
    const c = across ? col + k : col;
    if (board.cells[r * 15 + c] === '.') placements.push({ row: r, col: c, tile });
  });
  return place(board, placements);
}

function explain(before: Board, after: Board) {
  const inferred = inferMove(before, after);
  if (!inferred.ok || inferred.kind !== 'play') throw new Error(`no play: ${JSON.stringify(inferred)}`);
  return explainMove(after, inferred.move, rules);
}

const quiz = play(emptyBoard(), 'QUIZ', 7, 7);

describe('explaining a score', () => {
  it('names every letter, the premium under each new tile and the word multiplier', () => {
    const e = explain(emptyBoard(), quiz);
    expect(e.move.position).toBe('8H');
    expect(e.points).toBe(44); // (10 + 1 + 1 + 10) × 2, the centre star
    expect(e.words).toHaveLength(1);
    const w = e.words[0]!;
    expect(w.letters.map((l) => [l.tile, l.value, l.premium])).toEqual([
      ['Q', 10, 'DW'],
      ['U', 1, null],
      ['I', 1, null],
      ['Z', 10, null],
    ]);
    expect(w.sentence).toBe('QUIZ: Q 10 + U 1 + I 1 + Z 10 = 22, × 2 (double word 8H) = 44');
  });

  it('marks a premium under an older tile as used before, not counted', () => {
    const after = play(quiz, 'QI', 7, 7, false); // I on 9H, under the Q on the star
    const e = explain(quiz, after);
    expect(e.points).toBe(11);
    const q = e.words[0]!.letters[0]!;
    expect(q).toMatchObject({ tile: 'Q', premium: null, covered: 'DW', placed: false });
    expect(e.words[0]!.sentence).toBe('QI: Q 10 (double word 8H used before) + I 1 = 11');
  });

  it('writes letter premiums, cross-words and the bingo into the sentences', () => {
    // RETAINS on 8B…8H: T on the double letter 8D, the star at 8H doubles the word.
    const e = explain(emptyBoard(), play(emptyBoard(), 'RETAINS', 7, 1));
    expect(e.bingo).toBe(50);
    expect(e.points).toBe((1 + 1 + 1 * 2 + 1 + 1 + 1 + 1) * 2 + 50); // T on 8D, a double letter
    expect(e.words[0]!.sentence).toContain('T 1 × 2 (double letter 8D)');
    expect(e.sentence).toBe(`RETAINS ${e.points - 50} + bingo 50 = ${e.points}`);
  });

  it('scores a blank at 0 and says so', () => {
    const after = play(emptyBoard(), 'QuIZ', 7, 7);
    const e = explain(emptyBoard(), after);
    expect(e.points).toBe(42);
    expect(e.words[0]!.sentence).toContain('u 0 (blank)');
  });
});

describe('the cause of a wrong claim', () => {
  const causeOf = (before: Board, after: Board, claimed: number) =>
    diagnose(explain(before, after), claimed, rules).map((c) => c.code);

  it('a claim that is right has no cause', () => {
    expect(causeOf(emptyBoard(), quiz, 44)).toEqual([]);
  });

  it('a premium counted again under an old tile', () => {
    const after = play(quiz, 'QI', 7, 7, false);
    expect(causeOf(quiz, after, 22)).toContain('premium-under-old-tile'); // 11 × 2
  });

  it('a word multiplier applied twice, and a premium forgotten', () => {
    expect(causeOf(emptyBoard(), quiz, 88)).toContain('multiplier-twice');
    expect(causeOf(emptyBoard(), quiz, 22)[0]).toBe('premium-missed');
  });

  it('a cross-word left out, or counted twice', () => {
    // AB on 9I–9J, under the U and the I: UA and IB are cross-words.
    const after = play(quiz, 'AB', 8, 8); // A on 9I (row 9, col I), B on 9J
    const e = explain(quiz, after);
    const cross = e.words.filter((w) => !w.main);
    expect(cross.map((w) => w.word).sort()).toEqual(['IB', 'UA']);
    const ib = cross.find((w) => w.word === 'IB')!;
    const codes = diagnose(e, e.points - ib.score, rules).map((c) => c.code);
    expect(codes).toContain('cross-word-missed');
    expect(diagnose(e, e.points + ib.score, rules).map((c) => c.code)).toContain('word-counted-twice');
  });

  it('a blank scored as its letter', () => {
    const after = play(emptyBoard(), 'QuIZ', 7, 7);
    // u as U: 1 more, doubled by the star.
    expect(causeOf(emptyBoard(), after, 44)).toContain('blank-as-letter');
  });

  it('a bingo missed, or added', () => {
    const seven = play(emptyBoard(), 'RETAINS', 7, 1);
    const e = explain(emptyBoard(), seven);
    expect(diagnose(e, e.points - 50, rules)[0]!.code).toBe('bingo-missed');
    expect(causeOf(emptyBoard(), quiz, 94)[0]).toBe('bingo-added');
  });

  it("the main word's multiplier applied to a cross-word that does not touch it", () => {
    // QUIZ and an H on 10L; then ZOEA down from the Z: A lands on the double word 11K, E beside the H forms EH.
    const crossed = place(quiz, [{ row: 9, col: 11, tile: 'H' }]);
    const e = explain(crossed, play(crossed, 'ZOEA', 7, 10, false));
    expect(e.words[0]!).toMatchObject({ word: 'ZOEA', wordMultiplier: 2, main: true });
    const eh = e.words.find((w) => !w.main)!;
    expect(eh).toMatchObject({ word: 'EH', wordMultiplier: 1 });
    expect(diagnose(e, e.points + eh.score, rules).map((c) => c.code)).toContain('multiplier-on-cross-word');
  });
});

describe('an announced move', () => {
  const announced = (text: string) => {
    const parsed = parseAnnounced(text);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.announced;
  };

  it('reads "QI H7", "H7 QI 22", "8H (Q)I" and ".I"', () => {
    expect(announced('QI H7')).toMatchObject({
      word: 'QI',
      points: null,
      position: { row: 6, col: 7, direction: 'down' },
    });
    expect(announced('H7 QI 22')).toMatchObject({ word: 'QI', points: 22 });
    expect(announced('H8 (Q)I').marked).toEqual([true, false]);
    expect(announced('H8 .I')).toMatchObject({ word: '.I', marked: [true, false] });
    for (const bad of ['QI', 'QI Z99', 'Q H8', 'H8 Q1', 'H8 (QI', 'H8 QI x'])
      expect(parseAnnounced(bad).ok, bad).toBe(false);
  });

  it('finds which tiles were new when only one choice is a legal move', () => {
    const after = play(quiz, 'QI', 7, 7, false);
    const result = explainAnnounced(after, announced('H8 QI'), rules);
    if (!result.ok) throw new Error(result.message);
    expect(result.explanation.move.tiles).toEqual([{ row: 8, col: 7, tile: 'I' }]);
    expect(result.explanation.points).toBe(11);
  });

  it('says when the board does not show the word', () => {
    const result = explainAnnounced(quiz, announced('8H QUIT'), rules);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.reason).toBe('not-on-board');
      expect(result.message).toContain('8K shows Z');
    }
  });

  it('holds an ambiguous announcement unless the points pick one reading', () => {
    // QUIZ, then T under the I: with the I new too, QU and Z would stand apart before: one reading only.
    const one = explainAnnounced(play(quiz, 'IT', 7, 9, false), announced('J8 IT'), rules);
    expect(one.ok && one.explanation.move.tiles.map((t) => t.tile).join('')).toBe('T');
    // AT on 8H, then O under the T: TO may be O alone (3) or T and O with AT formed across (5).
    const after = play(play(emptyBoard(), 'AT', 7, 7), 'TO', 7, 8, false);
    const both = explainAnnounced(after, announced('I8 TO'), rules);
    expect(both.ok).toBe(false);
    if (!both.ok) {
      expect(both.reason).toBe('ambiguous');
      expect(both.options?.map((o) => o.points).sort()).toEqual([3, 5]);
    }
    const picked = explainAnnounced(after, announced('I8 TO 5'), rules);
    expect(picked.ok && picked.explanation.move.tiles.length).toBe(2);
    expect(explainAnnounced(after, announced('I8 (T)O'), rules)).toMatchObject({ ok: true });
  });
});
