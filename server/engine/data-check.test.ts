import { describe, expect, it } from 'vitest';
import standard from './data/layouts/standard.json' with { type: 'json' };
import en from './data/tilesets/en.json' with { type: 'json' };
import { checkLayout, checkTileSet, DataFileError } from './data-check.ts';
import { isVowel, standardLayout, tileSets } from './index.ts';

/** A copy of a shipped file with one field replaced. */
const withField = (json: object, field: string, value: unknown) => ({ ...json, [field]: value });
const enWithLetters = (...letters: unknown[]) =>
  withField(en, 'letters', [...en.letters.slice(1), ...letters]);

describe('tile set files', () => {
  it('reads the English file into the set the engine exports', () => {
    expect(checkTileSet(en, 'tilesets/en.json')).toEqual(tileSets.en);
    expect(tileSets.en.letters[0]).toEqual(['A', 9, 1]);
  });

  it('counts Y as a vowel in the Polish set only', () => {
    expect(isVowel(tileSets.pl, 'Y')).toBe(true);
    expect(isVowel(tileSets.en, 'Y')).toBe(false);
    expect(isVowel(tileSets.de, 'Ä')).toBe(true);
  });

  it.each([
    ['a count of 0', enWithLetters(['A', 0, 1]), 'letters[25][1] (count of A) must be an integer ≥ 1, got 0'],
    [
      'a fractional count',
      enWithLetters(['A', 1.5, 1]),
      'letters[25][1] (count of A) must be an integer ≥ 1',
    ],
    [
      'a negative value',
      enWithLetters(['A', 9, -1]),
      'letters[25][2] (value of A) must be an integer ≥ 0, got -1',
    ],
    ['a value given as text', enWithLetters(['A', 9, '1']), 'letters[25][2] (value of A) must be an integer'],
    ['a letter listed twice', enWithLetters(['B', 9, 1]), 'letters[25][0] (letter) repeats "B"'],
    ['a two-character letter', enWithLetters(['CH', 1, 5]), 'letters[25][0] (letter) must be one uppercase'],
    ['a lowercase letter', enWithLetters(['a', 9, 1]), 'letters[25][0] (letter) must be one uppercase'],
    ['a letter without a value', enWithLetters(['A', 9]), 'letters[25] must be [letter, count, value]'],
    ['a vowel that is not a letter', withField(en, 'vowels', 'AEIOUÄ'), 'vowels holds "Ä"'],
    ['negative blanks', withField(en, 'blanks', -2), 'blanks must be an integer ≥ 0, got -2'],
    ['an id other than the file name', withField(en, 'id', 'english'), `id must be the file's name, "en"`],
    ['no letters', withField(en, 'letters', undefined), 'letters must be an array, got nothing'],
  ])('rejects %s, naming the file and the field', (_, json, message) => {
    expect(() => checkTileSet(json, 'tilesets/en.json')).toThrow(
      `server/engine/data/tilesets/en.json: ${message}`,
    );
  });

  it('throws a DataFileError that carries the file and the field', () => {
    try {
      checkTileSet(enWithLetters(['A', 0, 1]), 'tilesets/en.json');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(DataFileError);
      expect(err).toMatchObject({ file: 'tilesets/en.json', field: 'letters[25][1] (count of A)' });
    }
  });
});

describe('layout files', () => {
  const rows = standard.rows;

  it('reads the standard file into the layout the engine exports', () => {
    expect(checkLayout(standard, 'layouts/standard.json')).toEqual(standardLayout);
  });

  it.each([
    ['14 rows', withField(standard, 'rows', rows.slice(1)), 'rows must hold 15 rows, got 14'],
    [
      'a row of 16 squares',
      withField(standard, 'rows', [`${rows[0]}.`, ...rows.slice(1)]),
      'rows[0] must have 15',
    ],
    [
      'an unknown premium code',
      withField(standard, 'rows', [...rows.slice(0, 3), 'x'.repeat(15), ...rows.slice(4)]),
      'rows[3][0] must be one of . d D t T, got "x"',
    ],
    ['a board of another size', withField(standard, 'size', 21), 'size must be 15'],
    [
      'a start off the board',
      withField(standard, 'start', [7, 15]),
      'start must be a square on the 15×15 board',
    ],
    [
      'a negative start',
      withField(standard, 'start', [-1, 7]),
      'start[0] (row) must be an integer ≥ 0, got -1',
    ],
    ['a file that is not an object', [], 'the file must be an object, got []'],
  ])('rejects %s, naming the file and the field', (_, json, message) => {
    expect(() => checkLayout(json, 'layouts/standard.json')).toThrow(
      `server/engine/data/layouts/standard.json: ${message}`,
    );
  });
});
