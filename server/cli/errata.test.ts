import { describe, expect, it } from 'vitest';
import { correctLabel, errataFor, parseErrata } from './errata.ts';

describe('label errata', () => {
  it('parses corrections, skipping comments and blank lines', () => {
    const r = parseErrata(
      '# header\n\nset/warped/w5\t9B\t.\tE\ta tile the label leaves out\nset/warped/w7 15o ? . # trailing comment\n',
    );
    expect(r).toEqual({
      ok: true,
      errata: [
        {
          line: 3,
          photo: 'set/warped/w5',
          cell: 8 * 15 + 1,
          square: '9B',
          label: '.',
          truth: 'E',
          note: 'a tile the label leaves out',
        },
        {
          line: 4,
          photo: 'set/warped/w7',
          cell: 14 * 15 + 14,
          square: '15O',
          label: '?',
          truth: '.',
          note: '',
        },
      ],
    });
  });

  it('refuses a malformed line with its line number', () => {
    const cases: [string, RegExp][] = [
      ['w5 9B .', /line 1: needs PHOTO SQUARE LABEL PHOTO-SHOWS/],
      ['w5 B9 . E', /line 1: 'B9' is not a square/],
      ['w5 16A . E', /line 1: '16A' is not a square/],
      ['w5 9B . 7', /line 1: '7' is not a square of board text/],
      ['w5 9B .. E', /line 1: '..' is not a square of board text/],
      ['w5 9B E E', /line 1: the label already says 'E'/],
      ['w5 9B . E\nw5 9b . A', /line 2: w5 9b is corrected already on line 1/],
    ];
    for (const [text, message] of cases) {
      const r = parseErrata(text);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message).toMatch(message);
    }
  });

  it('applies to the label files whose path ends with the photo named, by whole folder names', () => {
    const r = parseErrata('warped/w5 1A . E\nw5 1B . F\n');
    if (!r.ok) throw new Error(r.message);
    expect(errataFor(r.errata, '/data/set/warped/w5.txt').map((e) => e.square)).toEqual(['1A', '1B']);
    expect(errataFor(r.errata, '/data/set/other/w5.txt').map((e) => e.square)).toEqual(['1B']);
    expect(errataFor(r.errata, '/data/set/warped/xw5.txt')).toEqual([]);
    expect(errataFor(r.errata, '/data/set/warped/w50.txt')).toEqual([]);
    // The photo's name or the label's, with either slash, names the same photo.
    const forms = parseErrata('warped\\w5.jpg 1A . E\nwarped/w5.txt 1B . F\n');
    if (!forms.ok) throw new Error(forms.message);
    expect(errataFor(forms.errata, '/data/set/warped/w5.txt').map((e) => e.square)).toEqual(['1A', '1B']);
  });

  it('corrects the label, and refuses when the label does not say what the erratum expects', () => {
    const r = parseErrata('w5 1A . E\n');
    if (!r.ok) throw new Error(r.message);
    const cells = Array<string>(225).fill('.');
    const fixed = correctLabel(cells, r.errata, 'w5.txt');
    expect(fixed.ok && fixed.cells[0]).toBe('E');
    expect(cells[0]).toBe('.');
    cells[0] = 'A';
    const stale = correctLabel(cells, r.errata, 'w5.txt');
    expect(stale).toEqual({
      ok: false,
      message: "errata line 1: w5.txt says 'A' at 1A, not '.': the errata do not fit these labels",
    });
  });
});
