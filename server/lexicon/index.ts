/**
 * Lexicon loading for the service and CLI: the default English list (the `an-array-of-english-words` package, MIT,
 * ~275,000 words) or a user's one-word-per-line file (an NWL or Collins list they own). Parsing is the engine's;
 * this module only reads files and validates what it is given.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import dictionaryDe from 'dictionary-de';
import nspell from 'nspell';
import { Dawg, type Lexicon, lexiconFromText, SortedWords, type TileSet } from '../engine/index.ts';

export const DEFAULT_LEXICON = 'default-en';

/** Largest word-list file accepted (Collins is about 3 MB). */
const MAX_BYTES = 50 * 1024 * 1024;

let defaultLexicon: Lexicon | undefined;
/** As GERMAN_LIST_VERSION, for the English list. */
const ENGLISH_LIST_VERSION = 1;

let english: SortedWords | undefined;

/** The default English list's words, in capitals. */
function englishWords(): SortedWords {
  if (!english) {
    // Read as a file, not `require`d (the module cache would keep the package's 275,000 strings for good), and kept
    // worked out as the German list is.
    const text = readFileSync(createRequire(import.meta.url).resolve('an-array-of-english-words'), 'utf8');
    english = cachedWords('en', ENGLISH_LIST_VERSION, [text], () =>
      (JSON.parse(text) as string[]).map((w) => w.toUpperCase()),
    )!;
  }
  return english;
}

/** The default English list, loaded once. */
export function defaultEnglishLexicon(): Lexicon {
  if (!defaultLexicon) {
    const words = englishWords();
    defaultLexicon = {
      name: 'an-array-of-english-words',
      size: words.size,
      has: (word) => words.has(word.toUpperCase()),
    };
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
let germanList: SortedWords | undefined;
const GERMAN_NAME = 'hunspell-de (dictionary-de)';
/** Changed when what is kept of the German words changes: the kept lists of earlier versions are then not read. */
const GERMAN_LIST_VERSION = 1;

/**
 * German words as Hunspell's German dictionary knows them (the `dictionary-de` package read with `nspell`,
 * inflections included): for breaking ties between a camera's readings, not for flagging words. It knows far fewer
 * words than a Scrabble list (compounds and rare inflections are missing), so a word it does not know only weighs
 * less.
 *
 * nspell spells out every inflection when it reads the dictionary (1–2 s, 46 MB of heap in half a million small
 * objects, which every full garbage collection then goes through). What it answers for a word in capitals is kept
 * instead: the capitalised forms of the words it knows that it accepts (352,000), as one sorted list (4.4 MB, one
 * object). It is worked out once and kept in a file (`cachedWords`), read in 35–50 ms after that. The answers are
 * nspell's for every word whose letters keep their case both ways (every letter of a German tile set): with none of
 * the compound rules nspell uses (COMPOUNDRULE) and no input conversion (ICONV) in the dictionary, nspell accepts a
 * word only as one it spelled out, written as it is, capitalised or in lower case, each of which gives the same
 * capitals. A dictionary with either is asked through nspell itself, as before.
 */
export function germanReadingLexicon(): Lexicon {
  if (!germanLexicon) {
    const { aff, dic } = dictionaryDe;
    let spell: ReturnType<typeof nspell> | undefined;
    // Nouns are capitalised in the dictionary; a word in capitals matches either form.
    const accepts = (upper: string) =>
      spell!.correct(upper) || spell!.correct(upper[0] + upper.slice(1).toLowerCase());
    const words = cachedWords('de', GERMAN_LIST_VERSION, [aff, dic, packageVersion('nspell')], () => {
      spell = nspell({ aff: Buffer.from(aff), dic: Buffer.from(dic) });
      const inner = spell as unknown as {
        data: object;
        compoundRules: unknown[];
        conversion: { in: unknown[] };
      };
      // nspell's compound rules (COMPOUNDRULE; it ignores COMPOUNDBEGIN and the like) and input conversions (ICONV)
      // accept words it never spells out: such a dictionary is asked through nspell itself.
      if (inner.compoundRules.length > 0 || inner.conversion.in.length > 0) return undefined;
      const known = new Set<string>();
      for (const word of Object.keys(inner.data)) known.add(word.toUpperCase());
      return [...known].filter(accepts);
    });
    germanList = words;
    germanLexicon = {
      name: GERMAN_NAME,
      size: words?.size ?? 0,
      has: words ? (word) => words.has(word.toUpperCase()) : (word) => accepts(word.toUpperCase()),
    };
  }
  return germanLexicon;
}

/** The installed version of package `name`. */
function packageVersion(name: string): string {
  const require = createRequire(import.meta.url);
  return (require(`${name}/package.json`) as { version: string }).version;
}

/**
 * Where worked-out word lists are kept: TILECAM_CACHE_DIR, else node_modules/.cache/tilecam in the project (the
 * place build tools keep such files), else this user's own folder in the system's temporary folder.
 */
function cacheDirs(): { dir: string; shared: boolean }[] {
  const set = process.env.TILECAM_CACHE_DIR?.trim();
  if (set) return [{ dir: resolve(set), shared: false }];
  return [
    { dir: fileURLToPath(new URL('../../node_modules/.cache/tilecam/', import.meta.url)), shared: false },
    // The temporary folder is every user's: this user's own folder there, which no one else may write to.
    { dir: join(tmpdir(), `tilecam-cache-${process.getuid?.() ?? 'user'}`), shared: true },
  ];
}

/** Whether `dir` in a folder every user writes to is this user's own, and only theirs to write to. */
function ownFolder(dir: string): boolean {
  try {
    const info = lstatSync(dir);
    const uid = process.getuid?.();
    return info.isDirectory() && (uid === undefined || info.uid === uid) && (info.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/**
 * The word list `work` makes from `sources`, kept in a file named by a hash of them (and `version`): read from there
 * when it is there and whole (its last line holds the count of its words and a hash of them), else made and written
 * (to a file of its own, flushed to disk, then renamed, so that processes starting together never read one half
 * written). A folder that cannot be written only costs the time to make the list each time. `work` may say the list
 * cannot be made (undefined); nothing is kept then.
 */
function cachedWords(
  name: string,
  version: number,
  sources: readonly (string | Uint8Array)[],
  work: () => string[] | undefined,
): SortedWords | undefined {
  const hash = createHash('sha256').update(`tilecam word list ${version}`);
  for (const source of sources) hash.update(`\n${source.length}\n`).update(source);
  const key = `${name}-${hash.digest('hex').slice(0, 16)}.words`;
  const kept = readKeptFile(key, (bytes) => readKept(bytes.toString('utf8')));
  if (kept) return kept;
  const made = work();
  if (!made) return undefined;
  const words = SortedWords.of(made);
  const text = words.toString();
  const trailer = `#${words.size} ${createHash('sha256').update(text).digest('hex')}\n`;
  keepFile(key, text + trailer, `the ${name} word list`);
  return words;
}

/** The first kept file `key` that `read` makes something of, from the cache folders (cacheDirs). */
function readKeptFile<T>(key: string, read: (bytes: Buffer) => T | undefined): T | undefined {
  for (const { dir, shared } of cacheDirs()) {
    if (shared && !ownFolder(dir)) continue;
    try {
      const kept = read(readFileSync(join(dir, key)));
      if (kept) return kept;
    } catch {
      // Not there, or unreadable: made again.
    }
  }
  return undefined;
}

/**
 * Keeps `data` as file `key` in the first cache folder that takes it: written to a file of its own, flushed to disk,
 * then renamed, so that processes starting together never read one half written. A folder that cannot be written
 * only costs the time to make the data each time; `what` names it in the one line said then.
 */
function keepFile(key: string, data: string | Uint8Array, what: string): void {
  const failures: string[] = [];
  for (const { dir, shared } of cacheDirs()) {
    const part = join(dir, `${key}.${randomUUID()}`);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (shared && !ownFolder(dir)) throw new Error("the folder is not this user's alone");
      const fd = openSync(part, 'w');
      try {
        writeFileSync(fd, data);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(part, join(dir, key));
      return;
    } catch (err) {
      try {
        rmSync(part, { force: true });
      } catch {
        // Nothing was written.
      }
      failures.push(`${dir}: ${(err as Error).message}`);
    }
  }
  console.error(
    `tilecam: ${what} could not be kept (it is worked out again at each start; TILECAM_CACHE_DIR names a folder for it): ${failures.join('; ')}`,
  );
}

/** A kept list, if `text` is one whole: its words, then `#COUNT SHA256` of them. */
function readKept(text: string): SortedWords | undefined {
  const cut = text.lastIndexOf('#');
  const trailer = /^#(\d+) ([0-9a-f]{64})\n$/.exec(text.slice(cut));
  if (cut < 0 || !trailer) return undefined;
  const body = text.slice(0, cut);
  // The hash is of the words as this module wrote them, sorted: their order is not checked again.
  if (createHash('sha256').update(body).digest('hex') !== trailer[2]) return undefined;
  const words = SortedWords.trusted(body);
  return words && words.size === Number(trailer[1]) && words.size > 0 ? words : undefined;
}

/**
 * A lexicon that weighs a camera's readings (server/service/game/interpret.ts), with how much a reading that makes a
 * word it does not know weighs against one that makes a word it knows: the fewer of the words played it misses, the
 * less such a word weighs.
 */
export interface ReadingLexicon extends Lexicon {
  readonly unknownWeight: number;
}

/**
 * The default English list holds every word of 800 of the corpus's 820 plays (97.6%, `npm run bench:movegen`): a
 * reading that makes a word it does not know weighs a twentieth. `npm run bench:context`, the corpus's plays read
 * with the seat renders' own doubts: of 1,821 moves read with a square in doubt, 312 held and 28 taken wrong, against
 * 563 and 26 at 0.2 (docs/measurements.md, "The game's context over the corpus's plays").
 */
const ENGLISH_UNKNOWN = 0.05;
/**
 * The German list holds 49% of the words on the German games' final boards (Hunspell's forms only): an unknown word
 * says little, and weighs 0.2. At 0.05 a German Q was committed wrong (docs/measurements.md, session 39).
 */
const GERMAN_UNKNOWN = 0.2;

/**
 * The German reading lexicon, loaded when a word is first looked up in it: a process that loads German games
 * without reading their frames (an instance handing them to workers) never pays for it.
 */
const lazyGerman: ReadingLexicon = {
  name: GERMAN_NAME,
  size: 0,
  has: (word) => germanReadingLexicon().has(word),
  unknownWeight: GERMAN_UNKNOWN,
};

let englishReading: ReadingLexicon | undefined;

/** The lexicon that breaks ties between a camera's readings in a game of `lang`, if there is one. */
export function readingLexicon(lang: string): ReadingLexicon | undefined {
  if (lang === 'en') {
    englishReading ??= { ...defaultEnglishLexicon(), unknownWeight: ENGLISH_UNKNOWN };
    return englishReading;
  }
  if (lang === 'de') return lazyGerman;
  return undefined;
}

/** Changed when the DAWG's format or making changes: kept DAWGs of earlier versions are then not read. */
const DAWG_VERSION = 1;

export type DawgResult = { ok: true; dawg: Dawg; name: string } | { ok: false; message: string };

/**
 * The lexicon `spec` as a DAWG over `set`'s letters, for the move generator: `default-en` (the default English list),
 * `default-de` (the German words Hunspell's dictionary spells out, inflections included), or the path of a
 * one-word-per-line file. Made once (about a second for 275,000 words) and kept in the cache folder, read back in
 * milliseconds after that.
 */
export async function lexiconDawg(spec: string, set: TileSet): Promise<DawgResult> {
  let name = spec;
  let words: readonly string[];
  if (spec === DEFAULT_LEXICON) {
    name = 'an-array-of-english-words';
    words = englishWords().toString().split('\n');
  } else if (spec === 'default-de') {
    germanReadingLexicon();
    if (!germanList)
      return { ok: false, message: 'the German word list could not be made from dictionary-de' };
    name = GERMAN_NAME;
    words = germanList.toString().split('\n');
  } else {
    const loaded = await loadLexicon(spec);
    if (!loaded.ok) return loaded;
    const text = await readFile(spec, 'utf8');
    words = text
      .split(/\r?\n/)
      .map((w) => w.trim().normalize('NFC').toUpperCase())
      .filter((w) => w && !w.startsWith('#'));
  }
  const alphabet = set.letters.map(([letter]) => letter).join('');
  if ([...alphabet].length > 32)
    return { ok: false, message: `the ${set.name} set has more than 32 letters` };
  const hash = createHash('sha256').update(`tilecam dawg ${DAWG_VERSION}\n${alphabet}\n`);
  for (const w of words) hash.update(w).update('\n');
  const key = `dawg-${set.id}-${hash.digest('hex').slice(0, 16)}.dawg`;
  const kept = readKeptFile(key, (bytes) => Dawg.fromBytes(new Uint8Array(bytes)));
  if (kept && kept.alphabet === alphabet) return { ok: true, dawg: kept, name };
  const dawg = Dawg.build(alphabet, words);
  if (dawg.size === 0)
    return { ok: false, message: `${name} has no word of two letters or more of the ${set.name} set` };
  keepFile(key, dawg.toBytes(), `the ${name} DAWG`);
  return { ok: true, dawg, name };
}
