/**
 * A game photographed move by move with no score sheet, as `npm run bench:live` plays it: the English game of
 * ../shared/realdata/jheidel-en, whose hand-made labels are fixtures/labels/jheidel-en (its README says how they were
 * made). `sequence.txt` there lists the game's photos in move order; photos with the same label show the same board.
 * A line `NAME.jpg empty` is a photo of the empty board, which has no label file (an empty board's text is the same
 * file as the shared sets' empty labels, which are not copied into the project). A line `NAME.jpg pass` is a turn
 * that laid no tile (an exchange, a pass, a play challenged off: a rendered seat game's, models/training/seat_game.py),
 * the camera seeing NAME, the board as it was, again: a pass, the next player's turn after it.
 *
 * Each change of board between two photographed positions becomes moves:
 * - one legal play: the move, its photos those of the new position (the camera saw each of them);
 * - more tiles than one play lays (the players made several moves between two photos): a decomposition into legal
 *   plays, found by search, the last of them photographed and the others typed in by the scorekeeper, as a
 *   scorekeeper would who missed them.
 * The players take turns, seat 0 first. With no score sheet, the totals a move should leave are the engine's own
 * scores of the labelled moves in that order: the bench checks that the service recorded the moves the labels show.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Board,
  boardFromText,
  emptyBoard,
  formatBoard,
  inferMove,
  makeMove,
  makeRules,
  type Placement,
  scorePlay,
} from '../engine/index.ts';
import type { Colour, SheetGame, SheetMove } from './live-sheet.ts';

/** Reads the labelled game: `photos` the photo folder, `labels` the folder with the labels and sequence.txt. */
export function readLabelledGame(name: string, photos: string, labels: string): SheetGame {
  const sequence = readFileSync(join(labels, 'sequence.txt'), 'utf8')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  // Consecutive photos with the same board: one position, seen several times. A pass is a position of its own.
  const positions: { board: Board; photos: string[]; pass?: true }[] = [];
  for (const line of sequence) {
    const [file = '', mark] = line.split(/\s+/);
    if (mark !== undefined && mark !== 'empty' && mark !== 'pass')
      throw new Error(`${labels}sequence.txt: "${line}": say NAME.jpg, NAME.jpg empty or NAME.jpg pass`);
    if (mark === 'pass') {
      const last = positions.at(-1);
      if (!last) throw new Error(`${labels}sequence.txt: "${line}": a pass before the first photo`);
      positions.push({ board: last.board, photos: [join(photos, file)], pass: true });
      continue;
    }
    const board =
      mark === 'empty'
        ? emptyBoard()
        : boardFromText(
            readFileSync(join(labels, file.replace(/\.\w+$/, '.txt')), 'utf8')
              .normalize('NFC')
              .trimEnd()
              .split('\n'),
          );
    const last = positions.at(-1);
    if (last && !last.pass && last.board.cells.join('') === board.cells.join(''))
      last.photos.push(join(photos, file));
    else positions.push({ board, photos: [join(photos, file)] });
  }
  const rules = makeRules({ lang: 'en' });
  const notes: string[] = [];
  const moves: SheetMove[] = [];
  const totals: Record<Colour, number> = { green: 0, red: 0 };
  let seat = 0;
  let number = 0;
  const first = positions[0];
  if (!first || first.board.cells.some((c) => c !== '.'))
    throw new Error(`${labels}: the game's first photo must show the empty board`);
  let board = first.board;
  for (const position of positions.slice(1)) {
    if (position.pass) {
      const colour: Colour = seat === 0 ? 'green' : 'red';
      moves.push({
        number: ++number,
        kind: 'pass',
        colour,
        totals: { ...totals },
        label: formatBoard(board),
        photo: position.photos[0]!,
        views: [],
      });
      seat = 1 - seat;
      continue;
    }
    const plays = decompose(board, position.board);
    if (!plays) {
      notes.push(`the board of ${position.photos[0]} is no sequence of plays from the one before: left out`);
      continue;
    }
    if (plays.length > 1)
      notes.push(`${plays.length - 1} moves before ${position.photos[0]} were not photographed: typed in`);
    plays.forEach((placements, k) => {
      const made = makeMove(board, placements, rules.layout);
      if (!made.ok) throw new Error(made.message);
      const colour: Colour = seat === 0 ? 'green' : 'red';
      totals[colour] += scorePlay(made.after, placements, made.move.direction, rules).score;
      board = made.after;
      const label = formatBoard(board);
      const photographed = k === plays.length - 1;
      moves.push({
        number: ++number,
        kind: 'play',
        colour,
        totals: { ...totals },
        label,
        ...(photographed
          ? { photo: position.photos.at(-1)!, views: position.photos.slice(0, -1) }
          : { typed: true }),
      });
      seat = 1 - seat;
    });
  }
  return {
    name,
    names: { green: 'Seat 1', red: 'Seat 2' },
    first: 'green',
    moves,
    notes,
    lang: 'en',
    setup: first.photos,
  };
}

/**
 * The plays, in an order that is legal move by move, that turn `before` into `after` (new tiles only: none taken
 * away or changed); undefined when there is none. One play when the change is one.
 */
export function decompose(before: Board, after: Board): Placement[][] | undefined {
  const one = inferMove(before, after);
  if (one.ok && one.kind === 'play') return [one.move.placements as Placement[]];
  const size = before.size;
  const added: Placement[] = [];
  for (let i = 0; i < before.cells.length; i++) {
    const was = before.cells[i]!;
    const now = after.cells[i]!;
    if (was === now) continue;
    if (was !== '.') return undefined;
    added.push({ row: Math.floor(i / size), col: i % size, tile: now });
  }
  if (added.length === 0) return undefined;
  // Candidate plays: runs of new tiles along a row or a column, unbroken on the final board, and every stretch of
  // them (two moves may share a line).
  const lines = new Map<string, Placement[]>();
  for (const p of added) {
    for (const key of [`r${p.row}`, `c${p.col}`]) lines.set(key, [...(lines.get(key) ?? []), p]);
  }
  const candidates: Placement[][] = [];
  for (const [key, tiles] of lines) {
    const across = key.startsWith('r');
    const at = (p: Placement) => (across ? p.col : p.row);
    tiles.sort((a, b) => at(a) - at(b));
    const filled = (k: number) => {
      const [row, col] = across ? [tiles[0]!.row, k] : [k, tiles[0]!.col];
      return after.cells[row * size + col] !== '.';
    };
    // Split where the final board has a gap between two new tiles.
    const runs: Placement[][] = [[tiles[0]!]];
    for (const p of tiles.slice(1)) {
      const prev = runs.at(-1)!.at(-1)!;
      let joined = true;
      for (let k = at(prev) + 1; k < at(p); k++) if (!filled(k)) joined = false;
      if (joined) runs.at(-1)!.push(p);
      else runs.push([p]);
    }
    for (const run of runs)
      for (let a = 0; a < run.length; a++)
        for (let b = a + 1; b <= run.length; b++) candidates.push(run.slice(a, b));
  }
  candidates.sort((a, b) => b.length - a.length);
  const keyOf = (p: Placement) => p.row * size + p.col;
  // The board is `after` less the squares left, so the squares left say where the search stands: a state found to
  // lead nowhere is not searched again. A budget of states bounds the search.
  const dead = new Set<string>();
  let budget = 50_000;
  const search = (board: Board, left: Set<number>): Placement[][] | undefined => {
    if (left.size === 0) return [];
    const state = [...left].sort((a, b) => a - b).join(',');
    if (dead.has(state) || --budget < 0) return undefined;
    for (const play of candidates) {
      if (!play.every((p) => left.has(keyOf(p)))) continue;
      const made = makeMove(board, play);
      if (!made.ok) continue;
      const rest = new Set(left);
      for (const p of play) rest.delete(keyOf(p));
      const more = search(made.after, rest);
      if (more) return [play, ...more];
    }
    dead.add(state);
    return undefined;
  };
  return search(before, new Set(added.map(keyOf)));
}
