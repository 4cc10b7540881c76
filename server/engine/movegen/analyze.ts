/**
 * A recorded game's turns against the best plays: at each turn whose rack is known, every legal play of it
 * (generate.ts), the pass and the exchanges (while the bag allows them), ranked by equity (equity.ts); where the
 * move played ranks among them and the equity it gave up. Pure: the lexicon comes in as a DAWG.
 */
import { type Board, type Placement, place } from '../board.ts';
import { formatPosition } from '../coords.ts';
import type { GcgDocument, GcgEntry, GcgFailure } from '../gcg/read.ts';
import { placementsOf, type ReplayOptions, replayGcg } from '../gcg/replay.ts';
import type { Result } from '../result.ts';
import type { GameRules } from '../rules.ts';
import { scorePlay } from '../score.ts';
import { BLANK, type TileSetId } from '../tilesets.ts';
import { unseenTiles } from '../unseen.ts';
import { checkPlacement, wordsFormed } from '../words.ts';
import { playKey } from './brute.ts';
import type { Dawg } from './dawg.ts';
import { equity } from './equity.ts';
import { listPlays, type PlayList } from './generate.ts';

export interface RankedPlay {
  /** GCG position (`8D` across, `D8` down); '' for a pass or an exchange. */
  readonly position: string;
  /** GCG word (letters on the board already in parentheses; lowercase: a blank), `-` for a pass, `-TILES` for an
   *  exchange. */
  readonly word: string;
  readonly score: number;
  readonly equity: number;
  /** In a turn's `best`: this is the move played. */
  readonly played?: true;
}

export interface PlayedMove extends RankedPlay {
  /** Every word the play formed is in the lexicon (a pass or an exchange: true). */
  readonly valid: boolean;
  /** Its 1-based place by equity among the options generated; null when it was not among them. */
  readonly rank: number | null;
}

export interface AnalyzedTurn {
  /** 1-based, in the record's order of turns taken (plays, passes, exchanges). */
  readonly turn: number;
  readonly player: string;
  /** The rack before the move (`?` for a blank), or null when the record has none. */
  readonly rack: string | null;
  /** Whether the tiles played are all on that rack (null without a rack): a rack that does not hold them is doubtful,
   *  and the move cannot be among its plays. */
  readonly rackHolds: boolean | null;
  readonly played: PlayedMove;
  /** The best options by equity (none without a rack). */
  readonly best: readonly RankedPlay[];
  /** The equity the move gave up against the best; null when it was not ranked. */
  readonly equityLost: number | null;
  /** How many options were generated. */
  readonly options: number;
  /** Time to generate and rank them, in milliseconds. */
  readonly ms: number;
}

export interface AnalyzeOptions {
  readonly lang?: TileSetId;
  /** How many of the best to list (default 5). */
  readonly top?: number;
  /** The clock (injected: the engine reads none itself). */
  readonly now?: () => number;
}

interface Position {
  readonly entry: GcgEntry;
  readonly player: string;
  readonly board: Board;
  readonly rules: GameRules;
}

/** The positions of a record's turns, each with the board before it. */
export function recordPositions(
  document: GcgDocument,
  options: Pick<ReplayOptions, 'lang'> = {},
): Result<{ positions: Position[]; lang: TileSetId }, GcgFailure> {
  const positions: Position[] = [];
  const names = new Map(document.players.map((p) => [p.nick, p.name]));
  const replayed = replayGcg(document, {
    ...options,
    before: (entry, state) => {
      if (state.ended) return;
      if (entry.kind !== 'play' && entry.kind !== 'pass' && entry.kind !== 'exchange') return;
      positions.push({
        entry,
        player: names.get(entry.nick) ?? entry.nick,
        board: state.board,
        rules: state.rules,
      });
    },
  });
  if (!replayed.ok) return replayed;
  return { ok: true, positions, lang: replayed.report.lang };
}

/** Every turn of `document` analysed under `dawg`. */
export function analyzeRecord(
  document: GcgDocument,
  dawg: Dawg,
  options: AnalyzeOptions = {},
): Result<{ turns: AnalyzedTurn[]; lang: TileSetId }, GcgFailure> {
  const found = recordPositions(document, options.lang ? { lang: options.lang } : {});
  if (!found.ok) return found;
  const now = options.now ?? (() => 0);
  const turns = found.positions.map((p, k) => analyzeTurn(p, k + 1, dawg, options.top ?? 5, now));
  return { ok: true, turns, lang: found.lang };
}

/**
 * Turn `turn` (1-based, as `analyzeRecord` numbers them) of `document` analysed with `rack` as the rack it was played
 * from (a scorekeeper's word for it, the record having none). A failure names a turn the record does not have.
 */
export function analyzeOneTurn(
  document: GcgDocument,
  turn: number,
  rack: string,
  lexicon: Dawg,
  options: AnalyzeOptions = {},
): Result<{ turn: AnalyzedTurn }, GcgFailure> {
  const found = recordPositions(document, options.lang ? { lang: options.lang } : {});
  if (!found.ok) return found;
  const position = found.positions[turn - 1];
  if (!position)
    return {
      ok: false,
      reason: 'bad-gcg',
      line: 0,
      message: `the game has ${found.positions.length} moves, not ${turn}`,
    };
  // A rack no player can hold: more tiles than a rack takes, or more of a tile than the set has beside the board.
  const bad = (message: string) => ({ ok: false as const, reason: 'bad-gcg' as const, line: 0, message });
  if ([...rack].length > position.rules.rackSize)
    return bad(`a rack holds at most ${position.rules.rackSize} tiles, not ${[...rack].length}`);
  const over = unseenTiles(position.rules.tileSet, position.board, { rack }).overdrawn;
  if (over.length > 0)
    return bad(
      `the rack and the board hold more ${over.join(', ')} than the ${position.rules.tileSet.name} set has`,
    );
  const withRack = { ...position, entry: { ...position.entry, rack } };
  return { ok: true, turn: analyzeTurn(withRack, turn, lexicon, options.top ?? 5, options.now ?? (() => 0)) };
}

function analyzeTurn(p: Position, turn: number, dawg: Dawg, top: number, now: () => number): AnalyzedTurn {
  const { entry, board, rules } = p;
  const rack = entry.rack ? entry.rack.toUpperCase() : null;
  const set = rules.tileSet;
  const played = describePlayed(entry, board, rules, dawg);
  if (rack === null)
    return {
      turn,
      player: p.player,
      rack,
      rackHolds: null,
      played: { ...withoutKeys(played), equity: played.score, rank: null },
      best: [],
      equityLost: null,
      options: 0,
      ms: 0,
    };
  const t0 = now();
  const unseen = unseenTiles(set, board, { rack, rackSize: rules.rackSize });
  const bagEmpty = unseen.bag === 0;
  const list = listPlays(board, rack, dawg, rules);
  const options = rankOptions(list, rack, rules, bagEmpty, unseen.bag >= rules.rackSize);
  const index = options.findIndex((o) =>
    o.play >= 0 ? samePlay(list, o.play, played.tiles) : o.key === played.key,
  );
  const best = options
    .slice(0, top)
    .map((o, k) => ({ ...describe(list, o), ...(k === index ? { played: true as const } : {}) }));
  const ms = now() - t0;
  const rank = index < 0 ? null : 1 + options.filter((o) => o.equity > options[index]!.equity).length;
  return {
    turn,
    player: p.player,
    rack,
    rackHolds: played.holds,
    played: {
      position: played.position,
      word: played.word,
      score: played.score,
      valid: played.valid,
      equity: index < 0 ? equity(played.score, played.leave, set, bagEmpty) : options[index]!.equity,
      rank,
    },
    best,
    equityLost: index < 0 ? null : Math.round((options[0]!.equity - options[index]!.equity) * 10) / 10,
    options: options.length,
    ms: Math.round(ms * 100) / 100,
  };
}

/** An option: play `play` of the list (its index), or the pass or an exchange (`play` -1, named by `key`). */
interface Option {
  readonly play: number;
  readonly key: string;
  readonly score: number;
  readonly equity: number;
}

/** Every option, best first: the plays, the pass, and (when the bag allows) each different exchange. Only the plays
 *  shown are unpacked. */
function rankOptions(
  list: PlayList,
  rack: string,
  rules: GameRules,
  bagEmpty: boolean,
  mayExchange: boolean,
): Option[] {
  const set = rules.tileSet;
  const leaves = new Map<string, number>();
  const options: Option[] = [];
  for (let i = 0; i < list.size; i++) {
    const leave = list.leave(i);
    let value = leaves.get(leave);
    if (value === undefined) {
      value = equity(0, leave, set, bagEmpty);
      leaves.set(leave, value);
    }
    options.push({
      play: i,
      key: '',
      score: list.score[i]!,
      equity: Math.round((list.score[i]! + value) * 10) / 10,
    });
  }
  options.push({ play: -1, key: 'pass', score: 0, equity: equity(0, rack, set, bagEmpty) });
  if (mayExchange) {
    const tiles = [...rack].sort();
    const out = new Set<string>();
    for (let mask = 1; mask < 1 << tiles.length; mask++) {
      const away = tiles.filter((_, k) => mask & (1 << k)).join('');
      if (out.has(away)) continue;
      out.add(away);
      const keep = tiles.filter((_, k) => !(mask & (1 << k))).join('');
      options.push({ play: -1, key: `-${away}`, score: 0, equity: equity(0, keep, set, false) });
    }
  }
  return options.sort((a, b) => b.equity - a.equity || b.score - a.score);
}

function describe(list: PlayList, o: Option): RankedPlay {
  if (o.play < 0) return { position: '', word: o.key === 'pass' ? '-' : o.key, score: 0, equity: o.equity };
  const play = list.play(o.play);
  return {
    position: formatPosition(play),
    word: gcgWord(list.board, play.placements, play),
    score: play.score,
    equity: o.equity,
  };
}

/** Whether play `i` of the list puts down exactly `tiles`. */
function samePlay(list: PlayList, i: number, tiles: readonly Placement[] | undefined): boolean {
  if (!tiles || list.count[i] !== tiles.length) return false;
  const n = list.board.size;
  for (let k = list.first[i]!; k < list.first[i]! + list.count[i]!; k++) {
    const sq = list.tileSq[k]!;
    const code = list.tileCode[k]!;
    const tile = code >= 0 ? list.dawg.alphabet[code]! : list.dawg.alphabet[-1 - code]!.toLowerCase();
    if (!tiles.some((t) => t.row * n + t.col === sq && t.tile === tile)) return false;
  }
  return true;
}

/** The main word in GCG notation: letters already on the board in parentheses. */
function gcgWord(
  board: Board,
  placements: readonly { row: number; col: number; tile: string }[],
  play: { row: number; col: number; direction: 'across' | 'down'; word: string },
): string {
  const placed = new Set(placements.map((p) => p.row * board.size + p.col));
  let out = '';
  let open = false;
  [...play.word].forEach((ch, k) => {
    const sq =
      play.direction === 'across'
        ? play.row * board.size + play.col + k
        : (play.row + k) * board.size + play.col;
    const old = !placed.has(sq);
    if (old && !open) out += '(';
    if (!old && open) out += ')';
    open = old;
    out += ch;
  });
  return open ? `${out})` : out;
}

/** The move as recorded: its notation, the engine's score, whether its words are in the lexicon, its key. */
function describePlayed(
  entry: GcgEntry,
  board: Board,
  rules: GameRules,
  dawg: Dawg,
): {
  position: string;
  word: string;
  score: number;
  valid: boolean;
  key: string;
  leave: string;
  holds: boolean;
  tiles?: readonly Placement[];
} {
  const rack = (entry.rack ?? '').toUpperCase();
  if (entry.kind === 'exchange') {
    const tiles = /^\d+$/.test(entry.tiles) ? entry.tiles : entry.tiles.toUpperCase();
    const sorted = [...tiles].sort().join('');
    return {
      position: '',
      word: `-${tiles}`,
      score: 0,
      valid: true,
      key: `-${sorted}`,
      leave: without(rack, tiles),
      holds: /^\d+$/.test(tiles)
        ? Number(tiles) <= rack.length
        : without(rack, tiles).length === rack.length - tiles.length,
    };
  }
  if (entry.kind !== 'play')
    return { position: '', word: '-', score: 0, valid: true, key: 'pass', leave: rack, holds: true };
  const position = formatPosition(entry.position);
  const placements = placementsOf(entry, board);
  if (!placements.ok || placements.placements.length === 0)
    return {
      position,
      word: entry.word,
      score: entry.score,
      valid: false,
      key: '',
      leave: rack,
      holds: false,
    };
  const tiles = placements.placements;
  const legal = checkPlacement(board, tiles, rules.layout);
  const after = place(board, tiles);
  const direction = legal.ok ? legal.direction : entry.position.direction;
  const words = wordsFormed(after, tiles, direction);
  const valid =
    legal.ok &&
    words.length > 0 &&
    words.every((w) =>
      dawg.has(w.squares.map((q) => after.cells[q.row * board.size + q.col]!.toUpperCase()).join('')),
    );
  const used = tiles.map((t) => (t.tile === t.tile.toUpperCase() ? t.tile : BLANK)).join('');
  return {
    position,
    word: entry.word,
    score: scorePlay(after, tiles, direction, rules).score,
    valid,
    key: playKey(tiles),
    leave: without(rack, used),
    holds: without(rack, used).length === rack.length - used.length,
    tiles,
  };
}

/** The move as the output shows it. */
function withoutKeys(p: { position: string; word: string; score: number; valid: boolean }) {
  return { position: p.position, word: p.word, score: p.score, valid: p.valid };
}

/** `rack` less `tiles` (each once). */
function without(rack: string, tiles: string): string {
  const left = [...rack];
  for (const t of tiles) {
    const at = left.indexOf(t);
    if (at >= 0) left.splice(at, 1);
  }
  return left.join('');
}
