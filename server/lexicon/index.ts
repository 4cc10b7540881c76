/**
 * Lexicon loading for the service and CLI: the default English list (the `an-array-of-english-words` package, MIT,
 * ~275,000 words) or a user's one-word-per-line file (an NWL or Collins list they own). Parsing is the engine's;
 * this module only reads files and validates what it is given.
 */
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import dictionaryDe from 'dictionary-de';
import nspell from 'nspell';
import { type Lexicon, lexiconFromText, lexiconFromWords } from '../engine/index.ts';

export const DEFAULT_LEXICON = 'default-en';

/** Largest word-list file accepted (Collins is about 3 MB). */
const MAX_BYTES = 50 * 1024 * 1024;

let defaultLexicon: Lexicon | undefined;

/** The default English list, loaded once. */
export function defaultEnglishLexicon(): Lexicon {
  if (!defaultLexicon) {
    const require = createRequire(import.meta.url);
    const words = require('an-array-of-english-words') as string[];
    defaultLexicon = lexiconFromWords(
      'an-array-of-english-words',
      new Set(words.map((w) => w.toUpperCase())),
    );
  }
  return defaultLexicon;
}

export type LoadResult = { ok: true; lexicon: Lexicon } | { ok: false; message: string };

/** `default-en`, or the path of a one-word-per-line file. */
export async function loadLexicon(spec: string): Promise<LoadResult> {
  if (spec === DEFAULT_LEXICON) return { ok: true, lexicon: defaultEnglishLexicon() };
  let size: number;
  try {
    const info = await stat(spec);
    if (!info.isFile()) return { ok: false, message: `${spec} is not a file` };
    size = info.size;
  } catch (err) {
    return {
      ok: false,
      message: `cannot read word list ${spec}: ${(err as NodeJS.ErrnoException).code ?? err}`,
    };
  }
  if (size > MAX_BYTES)
    return { ok: false, message: `word list ${spec} is over ${MAX_BYTES / 1024 / 1024} MB` };
  const text = await readFile(spec, 'utf8');
  const lexicon = lexiconFromText(spec, text);
  if (lexicon.size === 0) return { ok: false, message: `word list ${spec} has no words` };
  return { ok: true, lexicon };
}

let germanLexicon: Lexicon | undefined;
const GERMAN_NAME = 'hunspell-de (dictionary-de)';

/**
 * German words as Hunspell's German dictionary knows them (the `dictionary-de` package read with `nspell`,
 * inflections included, loaded once, about a second and 80 MB): for breaking ties between a camera's readings, not for
 * flagging words. It knows far fewer words than a Scrabble list (compounds and rare inflections are missing), so
 * a word it does not know only weighs less.
 */
export function germanReadingLexicon(): Lexicon {
  if (!germanLexicon) {
    const spell = nspell({ aff: Buffer.from(dictionaryDe.aff), dic: Buffer.from(dictionaryDe.dic) });
    const has = (word: string) => {
      const upper = word.toUpperCase();
      // Nouns are capitalised in the dictionary; an all-capitals word matches either form.
      return spell.correct(upper) || spell.correct(upper[0] + upper.slice(1).toLowerCase());
    };
    germanLexicon = { name: GERMAN_NAME, size: 0, has };
  }
  return germanLexicon;
}

/**
 * The German reading lexicon, loaded when a word is first looked up in it: a process that loads German games
 * without reading their frames (an instance handing them to workers) never pays for it.
 */
const lazyGerman: Lexicon = {
  name: GERMAN_NAME,
  size: 0,
  has: (word) => germanReadingLexicon().has(word),
};

/** The lexicon that breaks ties between a camera's readings in a game of `lang`, if there is one. */
export function readingLexicon(lang: string): Lexicon | undefined {
  if (lang === 'en') return defaultEnglishLexicon();
  if (lang === 'de') return lazyGerman;
  return undefined;
}
