/**
 * The lexicon interface and an in-memory word list. Words are flagged for the players, never rejected: the
 * players' challenge decides. Loading files is the server's job; this module only parses text it is given.
 */

export interface Lexicon {
  readonly name: string;
  /** Whether the word (any case; a blank's lowercase letter counts as its letter) is in the list. */
  has(word: string): boolean;
  readonly size: number;
}

/** A lexicon from one-word-per-line text. Lines are trimmed; empty lines and `#` comments are skipped. */
export function lexiconFromText(name: string, text: string): Lexicon {
  const words = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const word = line.trim();
    if (word === '' || word.startsWith('#')) continue;
    words.add(word.normalize('NFC').toUpperCase());
  }
  return lexiconFromWords(name, words);
}

export function lexiconFromWords(name: string, words: Iterable<string>): Lexicon {
  const set = words instanceof Set ? (words as Set<string>) : new Set([...words].map((w) => w.toUpperCase()));
  return { name, size: set.size, has: (word) => set.has(word.toUpperCase()) };
}

/** The words of a play not in the lexicon (unnamed blanks `?` make a word unknowable: it is not flagged). */
export function unknownWords(lexicon: Lexicon, words: readonly string[]): string[] {
  return words.filter((w) => !w.includes('?') && !lexicon.has(w));
}
