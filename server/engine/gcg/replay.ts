/**
 * Replays a GCG document through the game reducer: every play's tiles are put on the board and scored by the
 * engine, and each computed score is compared with the one written in the file. Nothing is copied from the file
 * but the tiles, positions, and the points of lines that are not about tiles (challenge bonus, time penalty).
 */
import { type Board, EMPTY, type Placement, tileAt } from '../board.ts';
import { parsePosition } from '../coords.ts';
import type { GameEvent } from '../events.ts';
import { applyEvent, type GameState, newGame } from '../game.ts';
import type { Result } from '../result.ts';
import { type EndRackRule, type GameRules, makeRules } from '../rules.ts';
import { hasLetter, type TileSetId, tileSetIds, tileSets } from '../tilesets.ts';
import type { GcgDocument, GcgEntry, GcgFailure } from './read.ts';

export interface Mismatch {
  readonly line: number;
  /** What the file says. */
  readonly recorded: number;
  /** What the engine computed. */
  readonly computed: number;
  /** `score`: the line's points differ; `total`: the points agree but the running total does not. */
  readonly field: 'score' | 'total';
  /** Index in the replayed state's turns of the line's first turn. */
  readonly turn: number;
}

export interface ReplayReport {
  readonly players: readonly { readonly name: string; readonly score: number }[];
  /** Move lines replayed. */
  readonly turns: number;
  readonly mismatches: readonly Mismatch[];
  readonly lang: TileSetId;
  readonly state: GameState;
}

export interface ReplayOptions {
  readonly lang?: TileSetId;
  /** GCG files follow the tournament convention (`double`) unless told otherwise. */
  readonly endRack?: EndRackRule;
  /** Called with each line and the game as it stands before it (the position a play was made in). */
  readonly before?: (entry: GcgEntry, state: GameState) => void;
}

/** Replays a document; a line that cannot be applied is an error naming it. */
export function replayGcg(
  document: GcgDocument,
  options: ReplayOptions = {},
): Result<{ report: ReplayReport }, GcgFailure> {
  const entries = document.lines.flatMap((l) => (l.type === 'entry' ? [l.entry] : []));
  const nicks = document.players.map((p) => p.nick);
  const twice = nicks.find((nick, i) => nicks.indexOf(nick) !== i);
  if (twice !== undefined) {
    const seats = document.lines.filter(
      (l) => l.type === 'pragma' && /^player\d$/.test(l.key) && l.value.split(/\s+/)[0] === twice,
    );
    const second = seats[1];
    return bad(
      second?.type === 'pragma' ? second.line : 1,
      `two players share the nickname '${twice}': their lines cannot be told apart`,
    );
  }
  for (const e of entries) if (!nicks.includes(e.nick)) nicks.push(e.nick);
  const names = nicks.map((nick) => document.players.find((p) => p.nick === nick)?.name ?? nick);
  if (nicks.length < 2 || nicks.length > 4)
    return bad(1, `a game needs 2 to 4 players, found ${nicks.length}`);
  const lang = options.lang ?? guessLang(document, entries);
  // A record that deducts a rack (`(RACK) -n`) follows the rule books' convention; otherwise the tournament one.
  const deducts = entries.some((e) => e.kind === 'end-rack' && e.score < 0);
  const endRack = options.endRack ?? (deducts ? 'seeds' : 'double');
  const rules: GameRules = makeRules({ lang, players: nicks.length, endRack, scorelessTurns: 0 });
  const start = newGame(names, rules);
  if (!start.ok) return bad(1, start.message);
  let state = start.state;
  const mismatches: Mismatch[] = [];
  const offset = nicks.map(() => 0);

  for (const entry of entries) {
    const player = nicks.indexOf(entry.nick);
    options.before?.(entry, state);
    const events = toEvents(entry, player, state.board);
    if (!events.ok) return events;
    // A record that skips a player's turn: that player lost it (a wrong challenge under the double rule).
    if (takesTurn(entry) && player !== state.toMove && !state.ended) {
      for (let k = 0; k < nicks.length && state.toMove !== player; k++) {
        const lost = applyEvent(state, { type: 'lost-turn', player: state.toMove });
        if (!lost.ok) return bad(entry.line, lost.message);
        state = lost.state;
      }
    }
    const before = state.turns.length;
    for (const event of events.events) {
      const step = applyEvent(state, event);
      if (!step.ok) return bad(entry.line, step.message);
      state = step.state;
    }
    const computed = state.turns
      .slice(before)
      .reduce((sum, t) => sum + (t.player === player ? t.points : 0), 0);
    if (computed !== entry.score)
      mismatches.push({ line: entry.line, recorded: entry.score, computed, field: 'score', turn: before });
    const diff = entry.total - state.scores[player]!;
    if (diff !== offset[player] && computed === entry.score) {
      mismatches.push({
        line: entry.line,
        recorded: entry.total,
        computed: state.scores[player]!,
        field: 'total',
        turn: before,
      });
    }
    offset[player] = diff;
  }
  const players = names.map((name, i) => ({ name, score: state.scores[i]! }));
  return { ok: true, report: { players, turns: entries.length, mismatches, lang, state } };
}

function takesTurn(entry: GcgEntry): boolean {
  return entry.kind === 'play' || entry.kind === 'pass' || entry.kind === 'exchange';
}

function toEvents(
  entry: GcgEntry,
  player: number,
  board: Board,
): Result<{ events: GameEvent[] }, GcgFailure> {
  const one = (event: GameEvent) => ({ ok: true as const, events: [event] });
  const rack = entry.rack === undefined ? {} : { rack: entry.rack };
  switch (entry.kind) {
    case 'play': {
      const placements = placementsOf(entry, board);
      if (!placements.ok) return placements;
      return one({ type: 'play', player, placements: placements.placements, ...rack });
    }
    case 'pass':
      return one({ type: 'pass', player, ...rack });
    case 'exchange':
      return one({
        type: 'exchange',
        player,
        tiles: /^\d+$/.test(entry.tiles) ? Number(entry.tiles) : entry.tiles,
        ...rack,
      });
    case 'withdraw':
      return one({ type: 'withdraw', player });
    case 'challenge-bonus':
      return one({ type: 'challenge-bonus', player, points: entry.score });
    case 'time-penalty':
      return one({ type: 'time-penalty', player, points: -entry.score });
    case 'end-rack':
      return one(
        entry.score < 0
          ? { type: 'rack-penalty', player, rack: entry.letters }
          : { type: 'end-rack', player, rack: entry.letters },
      );
  }
}

/** The tiles a play in GCG notation (`8D WINDY`, `H4 FA(R)M`, `E3 JAVE..N`) puts on `board`. */
export function placementsFromNotation(
  board: Board,
  notation: string,
): Result<{ placements: Placement[] }, GcgFailure> {
  const [pos, word, ...rest] = notation.trim().split(/\s+/);
  const position = pos === undefined ? undefined : parsePosition(pos, board.size);
  if (!position || word === undefined || rest.length > 0 || !/^[\p{L}.()?]+$/u.test(word)) {
    return bad(0, `expected a play like '8D WORD', got '${notation}'`);
  }
  return placementsOf({ line: 0, nick: '', score: 0, total: 0, kind: 'play', position, word }, board);
}

/** The tiles a play line puts down: letters on empty squares; `.`, `(…)` and spelled-out letters already there. */
export function placementsOf(
  entry: Extract<GcgEntry, { kind: 'play' }>,
  board: Board,
): Result<{ placements: Placement[] }, GcgFailure> {
  const { row, col, direction } = entry.position;
  const [dr, dc] = direction === 'across' ? [0, 1] : [1, 0];
  const placements: Placement[] = [];
  let k = 0;
  let through = false;
  for (const ch of entry.word) {
    if (ch === '(' || ch === ')') {
      through = ch === '(';
      continue;
    }
    const r = row + k * dr;
    const c = col + k * dc;
    k++;
    const there = tileAt(board, r, c);
    if (there === undefined) return bad(entry.line, `the word ${entry.word} runs off the board`);
    if (ch === '.' || through) {
      if (there === EMPTY) return bad(entry.line, `the word ${entry.word} plays through an empty square`);
      if (ch !== '.' && there.toUpperCase() !== ch.toUpperCase()) {
        return bad(entry.line, `the word ${entry.word} expects ${ch} on the board where there is ${there}`);
      }
      continue;
    }
    if (there !== EMPTY) {
      if (there.toUpperCase() === ch.toUpperCase()) continue; // a through-letter spelled out (old convention)
      return bad(entry.line, `the word ${entry.word} puts ${ch} on a square holding ${there}`);
    }
    placements.push({ row: r, col: c, tile: ch });
  }
  if (placements.length === 0) return bad(entry.line, `the word ${entry.word} places no tile`);
  return { ok: true, placements };
}

/** Tile set of a record: a `#lexicon` that names one (OSPS: Polish), else the first set that has every letter. */
function guessLang(document: GcgDocument, entries: readonly GcgEntry[]): TileSetId {
  const lexicon = document.lines.find((l) => l.type === 'pragma' && l.key === 'lexicon');
  if (lexicon?.type === 'pragma' && /^OSPS/i.test(lexicon.value)) return 'pl';
  const letters = new Set<string>();
  for (const e of entries) {
    const text =
      (e.kind === 'play' ? e.word : '') + (e.rack ?? '') + (e.kind === 'end-rack' ? e.letters : '');
    for (const ch of text.toUpperCase()) if (/\p{L}/u.test(ch)) letters.add(ch);
  }
  return tileSetIds.find((id) => [...letters].every((l) => hasLetter(tileSets[id], l))) ?? 'en';
}

function bad(line: number, message: string): { ok: false; reason: 'bad-gcg'; line: number; message: string } {
  return {
    ok: false,
    reason: 'bad-gcg',
    line,
    message: line === 0 || message.startsWith('line ') ? message : `line ${line}: ${message}`,
  };
}
