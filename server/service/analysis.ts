/**
 * The best plays of a move of a game, for its scorekeeper: the game's record (its GCG export), the turn asked for
 * and the rack the player said they held (given, or kept with the move), through the engine's move generator
 * (engine/movegen). Only the scorekeeper's token may ask.
 */
import {
  type AnalyzedTurn,
  analyzeOneTurn,
  analyzeRecord,
  type Dawg,
  hasLetter,
  readGcg,
  squareName,
  tileSets,
} from '../engine/index.ts';
import { DEFAULT_LEXICON, lexiconDawg } from '../lexicon/index.ts';
import type { GameAnalysis, GameSnapshot } from '../protocol/index.ts';
import { ServiceError } from './errors.ts';
import type { GameView } from './game/contract.ts';

/** Each language's lexicon, loaded once (the first takes about a second; it is then kept on disk). */
const lexicons = new Map<'en' | 'de', Promise<{ lexicon: Dawg; name: string }>>();

function lexiconFor(lang: 'en' | 'de'): Promise<{ lexicon: Dawg; name: string }> {
  let loading = lexicons.get(lang);
  if (!loading) {
    loading = lexiconDawg(lang === 'en' ? DEFAULT_LEXICON : 'default-de', tileSets[lang]).then((r) => {
      if (!r.ok) throw new ServiceError('unavailable', `no lexicon to analyse with: ${r.message}`);
      return { lexicon: r.dawg, name: r.name };
    });
    // A failure is not kept: the next request tries again.
    loading.catch(() => lexicons.delete(lang));
    lexicons.set(lang, loading);
  }
  return loading;
}

/**
 * The game's snapshot, when its moves can be analysed. Refuses Scrabble Me, and a game with a blank on its board whose
 * letter is not named yet (read by the camera as a blank, and never named): its record cannot say which letter the
 * blank stands for, and no word through it can be checked.
 */
function analysable(game: GameView): GameSnapshot {
  const snapshot = game.snapshot();
  if (snapshot.variant === 'scrabble-me')
    throw new ServiceError(
      'not-allowed',
      'best plays are worked out for games on one board, not Scrabble Me',
    );
  const squares = snapshot.board.flatMap((row, r) =>
    [...row].flatMap((tile, c) => (tile === '?' ? [squareName({ row: r, col: c })] : [])),
  );
  if (squares.length > 0)
    throw new ServiceError(
      'not-allowed',
      `the blank on ${squares.join(', ')} is not named yet: name the letter it stands for, then ask again`,
    );
  return snapshot;
}

/** Turn `turn` (1-based: plays, passes and exchanges in order) of `game`, played from `rack` (default: the rack
 *  kept with the move). */
export async function analyzeTurn(
  game: GameView,
  turn: number,
  given: string | undefined,
): Promise<AnalyzedTurn & { lexicon: string }> {
  const snapshot = analysable(game);
  const rack = given ?? game.keptRack(turn);
  if (rack === undefined)
    throw new ServiceError(
      'bad-request',
      `no rack is kept with move ${turn}: send the rack it was played from`,
    );
  const lang = snapshot.lang === 'de' ? 'de' : 'en';
  const set = tileSets[lang];
  const odd = [...rack].find((t) => t !== '?' && !hasLetter(set, t));
  if (odd) throw new ServiceError('bad-request', `the ${set.name} set has no tile ${odd}`);
  const read = readGcg(game.gcg({ racks: true }));
  if (!read.ok) throw new ServiceError('unavailable', `the game's record could not be read: ${read.message}`);
  const { lexicon, name } = await lexiconFor(lang);
  const analysed = analyzeOneTurn(read.document, turn, rack, lexicon, { lang, top: 5 });
  if (!analysed.ok) throw new ServiceError('bad-request', analysed.message);
  return { ...analysed.turn, lexicon: name };
}

/** Every move of `game` against the best plays of the rack kept with it (a move without one is listed, not ranked),
 *  and each player's equity given up over the moves ranked. */
export async function analyzeGame(game: GameView): Promise<GameAnalysis> {
  const snapshot = analysable(game);
  const lang = snapshot.lang === 'de' ? 'de' : 'en';
  const read = readGcg(game.gcg({ racks: true }));
  if (!read.ok) throw new ServiceError('unavailable', `the game's record could not be read: ${read.message}`);
  // The record writes each play's own tiles where no rack was kept: those are no rack the player held.
  let move = 0;
  const lines = read.document.lines.map((line) => {
    if (line.type !== 'entry' || !['play', 'pass', 'exchange'].includes(line.entry.kind)) return line;
    move++;
    if (game.keptRack(move) !== undefined) return line;
    const { rack: _rack, ...entry } = line.entry;
    return { ...line, entry };
  });
  const { lexicon, name } = await lexiconFor(lang);
  const analysed = analyzeRecord({ ...read.document, lines }, lexicon, { lang, top: 5 });
  if (!analysed.ok)
    throw new ServiceError('unavailable', `the game's record could not be analysed: ${analysed.message}`);
  const players = snapshot.players.map((p) => {
    const theirs = analysed.turns.filter((t) => t.player === p.name);
    const ranked = theirs.filter((t) => t.equityLost !== null);
    const lost = ranked.reduce((sum, t) => sum + t.equityLost!, 0);
    return {
      name: p.name,
      moves: theirs.length,
      ranked: ranked.length,
      equityLost: Math.round(lost * 10) / 10,
    };
  });
  return { lexicon: name, turns: analysed.turns, players };
}
