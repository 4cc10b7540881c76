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
  const upper = words instanceof Set ? (words as Set<string>) : [...words].map((w) => w.toUpperCase());
  const list = SortedWords.of(upper);
  return { name, size: list.size, has: (word) => list.has(word.toUpperCase()) };
}

/**
 * A word list kept sorted in one string, looked up by halving: about a byte a letter, and a single object for the
 * garbage collector to look at, where a `Set` of the same words is one object a word (the default English list's
 * 275,000 words: 20 MB of heap as a Set, 2.8 MB here). Words are compared by UTF-16 code units, as `Array.sort`
 * orders them; a word is any string without a line break.
 */
export class SortedWords {
  private constructor(
    /** The words in order, each followed by a line break. */
    private readonly text: string,
    /** Where each word starts in `text`, and one past the end. */
    private readonly starts: Uint32Array,
  ) {}

  /** The words given, sorted; repeated ones kept once, empty ones left out. */
  static of(words: Iterable<string>): SortedWords {
    // Sorted, a word given twice stands next to itself: kept once without a Set of them all.
    const sorted = [...words].filter((w) => w !== '').sort();
    const unique = sorted.filter((w, k) => k === 0 || w !== sorted[k - 1]);
    if (unique.some((w) => w.includes('\n'))) throw new Error("a word list's words have no line breaks");
    return SortedWords.fromText(unique.length === 0 ? '' : `${unique.join('\n')}\n`)!;
  }

  /**
   * The list written by `text` (each word followed by a line break, in order, none twice, none empty), or undefined
   * when the text is not such a list. A list cut at a line break, or with a word left out, is one: what reads a kept
   * list checks it whole otherwise (server/lexicon keeps a count and a hash beside it).
   */
  static parse(text: string): SortedWords | undefined {
    return SortedWords.fromText(text, true);
  }

  /**
   * The list `text` is known to be, as `toString` wrote it (its hash kept beside it matches): read without checking
   * the order again, which is half the time of reading the German list.
   */
  static trusted(text: string): SortedWords | undefined {
    return SortedWords.fromText(text);
  }

  private static fromText(text: string, check = false): SortedWords | undefined {
    if (text !== '' && !text.endsWith('\n')) return undefined;
    let count = 0;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
    const starts = new Uint32Array(count + 1);
    let at = 0;
    for (let k = 0; k < count; k++) {
      const end = text.indexOf('\n', at);
      starts[k] = at;
      at = end + 1;
    }
    starts[count] = at;
    const list = new SortedWords(text, starts);
    if (check) for (let k = 1; k < count; k++) if (list.compareAt(k - 1, k) >= 0) return undefined;
    if (check && count > 0 && starts[1]! - starts[0]! < 2) return undefined;
    return list;
  }

  get size(): number {
    return this.starts.length - 1;
  }

  has(word: string): boolean {
    let lo = 0;
    let hi = this.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.compare(mid, word);
      if (c === 0) return true;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /** The list as `parse` reads it. */
  toString(): string {
    return this.text;
  }

  /** Word k against `word`: negative when it comes first. */
  private compare(k: number, word: string): number {
    const from = this.starts[k]!;
    const length = this.starts[k + 1]! - 1 - from;
    const n = Math.min(length, word.length);
    for (let i = 0; i < n; i++) {
      const c = this.text.charCodeAt(from + i) - word.charCodeAt(i);
      if (c !== 0) return c;
    }
    return length - word.length;
  }

  private compareAt(a: number, b: number): number {
    const from = this.starts[b]!;
    return this.compare(a, this.text.slice(from, this.starts[b + 1]! - 1));
  }
}

/** The words of a play not in the lexicon (unnamed blanks `?` make a word unknowable: it is not flagged). */
export function unknownWords(lexicon: Lexicon, words: readonly string[]): string[] {
  return words.filter((w) => !w.includes('?') && !lexicon.has(w));
}
