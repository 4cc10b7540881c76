import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lexiconFromText, SortedWords, unknownWords } from '../engine/index.ts';
import { DEFAULT_LEXICON, defaultEnglishLexicon, loadLexicon, readingLexicon } from './index.ts';

describe('lexicons', () => {
  it('reads a one-word-per-line list, ignoring case, blank lines, comments and CRLF', () => {
    const lex = lexiconFromText('mine', '# my list\r\nqi\r\n\r\n ZA \nÄRGER\n');
    expect(lex.size).toBe(3);
    expect(lex.has('QI')).toBe(true);
    expect(lex.has('za')).toBe(true);
    expect(lex.has('ärger')).toBe(true);
    expect(lex.has('QAT')).toBe(false);
  });

  it('flags the words of a play that are not in the list, reading a blank as its letter, never an unnamed blank', () => {
    const lex = lexiconFromText('mine', 'WINDY\nAN\n');
    expect(unknownWords(lex, ['WInDY', 'AN', 'XU', 'W?NDY'])).toEqual(['XU']);
  });

  it('loads the default English list with its common and Scrabble words', async () => {
    const loaded = await loadLexicon(DEFAULT_LEXICON);
    if (!loaded.ok) throw new Error(loaded.message);
    expect(loaded.lexicon.size).toBeGreaterThan(200_000);
    for (const word of ['QI', 'ZA', 'WINDY', 'RETAINS']) expect(loaded.lexicon.has(word), word).toBe(true);
    expect(loaded.lexicon.has('TILAX')).toBe(false);
  });

  it('loads a user’s file, and says clearly when a file is missing or empty', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilecam-lex-'));
    writeFileSync(join(dir, 'list.txt'), 'QI\nZA\n');
    writeFileSync(join(dir, 'empty.txt'), '\n# nothing\n');
    const loaded = await loadLexicon(join(dir, 'list.txt'));
    expect(loaded.ok && loaded.lexicon.size).toBe(2);
    expect(await loadLexicon(join(dir, 'nope.txt'))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/cannot read word list .*ENOENT/),
    });
    expect(await loadLexicon(join(dir, 'empty.txt'))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/has no words/),
    });
    expect(await loadLexicon(dir)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/is not a file/),
    });
  });

  it('keeps a word list sorted in one string that answers as a Set of the same words does', () => {
    // Words over a small alphabet (many prefixes of one another), non-ASCII letters among them.
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const word = () =>
      Array.from({ length: 1 + Math.floor(random() * 6) }, () => 'ABÄÖZß'[Math.floor(random() * 6)]).join('');
    const words = Array.from({ length: 3000 }, word);
    const list = SortedWords.of(words);
    const set = new Set(words);
    expect(list.size).toBe(set.size);
    for (let k = 0; k < 20_000; k++) {
      const probe = word();
      expect(list.has(probe), probe).toBe(set.has(probe));
    }
    for (const w of set) expect(list.has(w), w).toBe(true);
    expect(list.has('')).toBe(false);
    // Written and read back; a list cut short, out of order or with a word twice is refused.
    expect(SortedWords.parse(list.toString())?.size).toBe(set.size);
    const text = list.toString();
    expect(SortedWords.parse(text.slice(0, -3))).toBeUndefined();
    expect(SortedWords.parse('B\nA\n')).toBeUndefined();
    expect(SortedWords.parse('A\nA\n')).toBeUndefined();
    expect(SortedWords.parse('\nA\n')).toBeUndefined();
    expect(SortedWords.parse('A\nAB\nB\n')?.has('AB')).toBe(true);
    expect(SortedWords.of([]).has('A')).toBe(false);
    expect(() => SortedWords.of(['A\nB'])).toThrow(/line break/);
  });
});

describe('reading lexicons', () => {
  it('weigh a word they lack by how many of the words played they hold: the English list less than the German', () => {
    const en = readingLexicon('en')!;
    // The default list, as the game reads with it: the same words.
    expect(en.has('CRAALED')).toBe(true);
    expect(en.has('XQZT')).toBe(false);
    expect(en.size).toBe(defaultEnglishLexicon().size);
    expect(readingLexicon('en')).toBe(en);
    expect(en.unknownWeight).toBeGreaterThan(0);
    expect(en.unknownWeight).toBeLessThan(readingLexicon('de')!.unknownWeight);
    expect(readingLexicon('fr')).toBeUndefined();
  });
});
