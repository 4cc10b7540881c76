/**
 * A game's event history as a GCG document (then `writeGcg` for text): one line per score-sheet line, plays in
 * GCG notation with `.` for letters already on the board. A lost turn is written as a pass, as GCG has no line
 * for it. A play's rack is the one recorded with it (a game read from GCG), or else the tiles it played (blanks as
 * `?`), as other GCG writers do when the rack is unknown: readers such as Macondo's and Quackle's expect one.
 * `racks: false` writes no recorded rack (racks are private to the scorekeeper while the game is played).
 */
import { effectiveEvents, type GameState } from '../game.ts';
import type { GcgDocument, GcgEntry, GcgLine } from './read.ts';

export function gcgFromGame(state: GameState, { racks = true }: { racks?: boolean } = {}): GcgDocument {
  // A turn's event as it now stands: a correction (a rack added, a square fixed) replaces its target in place.
  const current = new Map(effectiveEvents(state.events).map(({ event, index }) => [index, event]));
  /** A pass's or an exchange's recorded rack, as a field of its line (none when it is not known). */
  const rackOf = (event: number): { rack?: string } => {
    const rack = racks ? recordedRack(current.get(event)) : undefined;
    return rack ? { rack } : {};
  };
  // A nickname is one word with no colon; two players' must differ (a reader tells their lines apart by it): a
  // name written the same as an earlier player's ("Anna" twice, "Anna B" beside "Anna_B") gets _2, _3, … after it.
  const taken = new Set<string>();
  const players = state.players.map((name, i) => {
    const base = name.replace(/[\s:\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, '_') || `player${i + 1}`;
    let nick = base;
    for (let k = 2; taken.has(nick); k++) nick = `${base}_${k}`;
    taken.add(nick);
    return { nick, name };
  });
  const lines: GcgLine[] = [
    { type: 'pragma', line: 1, key: 'character-encoding', value: 'UTF-8', text: '#character-encoding UTF-8' },
  ];
  players.forEach((p, i) => {
    const text = `#player${i + 1} ${p.nick} ${p.name}`;
    lines.push({
      type: 'pragma',
      line: lines.length + 1,
      key: `player${i + 1}`,
      value: `${p.nick} ${p.name}`,
      text,
    });
  });
  for (const turn of state.turns) {
    const base = {
      line: lines.length + 1,
      nick: players[turn.player]!.nick,
      score: turn.points,
      total: turn.cumulative,
    };
    let entry: GcgEntry;
    switch (turn.kind) {
      case 'play': {
        const main = turn.score!.words[0];
        const placed = new Set(turn.move!.placements.map((p) => `${p.row},${p.col}`));
        const word = main
          ? main.letters.map((l) => (placed.has(`${l.row},${l.col}`) ? l.tile : '.')).join('')
          : turn.move!.placements.map((p) => p.tile).join('');
        const event = current.get(turn.event);
        const recorded = racks ? recordedRack(event) : undefined;
        const rack = recorded || playedTiles(turn.move!.placements).join('');
        entry = { ...base, kind: 'play', rack, position: turn.move!.position, word };
        break;
      }
      case 'exchange':
        entry = { ...base, ...rackOf(turn.event), kind: 'exchange', tiles: String(turn.tiles ?? '') };
        break;
      case 'withdraw':
        entry = { ...base, kind: 'withdraw' };
        break;
      case 'challenge-bonus':
        entry = { ...base, kind: 'challenge-bonus' };
        break;
      case 'time-penalty':
        entry = { ...base, kind: 'time-penalty' };
        break;
      case 'end-rack':
      case 'rack-penalty':
        entry = { ...base, kind: 'end-rack', letters: turn.rack ?? '' };
        break;
      default:
        entry = { ...base, ...(turn.kind === 'pass' ? rackOf(turn.event) : {}), kind: 'pass' };
    }
    lines.push({ type: 'entry', entry });
  }
  return { players, lines };
}

/** The rack recorded with an event (a play, pass or exchange), if one was. */
export function recordedRack(event: GameState['events'][number] | undefined): string | undefined {
  return event && 'rack' in event && typeof event.rack === 'string' && event.rack !== ''
    ? event.rack
    : undefined;
}

/** The tiles a play took from its rack: its letters, `?` for each blank. */
export function playedTiles(placements: readonly { readonly tile: string }[]): string[] {
  return placements.map((p) => (p.tile === p.tile.toUpperCase() ? p.tile : '?'));
}
