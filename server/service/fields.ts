/**
 * A game's broadcast fields: short texts a stream's overlay shows (OBS text sources, as Woogles' broadcast fields
 * serve them): the scores, whose turn it is (or who won), the last move, the tiles unseen. Pure: a snapshot in,
 * the texts out; the HTTP routes serve them as text and as a server-sent-events stream.
 */
import type { GameSnapshot, MeSnapshot, Snapshot, TurnView } from '../protocol/index.ts';

export const fieldNames = ['score', 'turn', 'last', 'unseen', 'board'] as const;
export type FieldName = (typeof fieldNames)[number];
export type Fields = Record<FieldName, string>;

export function fieldsOf(s: Snapshot): Fields {
  return s.variant === 'scrabble-me' ? meFields(s) : classicFields(s);
}

function classicFields(s: GameSnapshot): Fields {
  const name = (i: number) => s.players[i]?.name ?? '?';
  return {
    score: s.players.map((p) => `${p.name} ${p.score}`).join(' – '),
    turn: s.ended ? result(s.players, s.ended.winners) : `${name(s.toMove)} to play`,
    last: lastMove(s.turns, name),
    unseen: `${s.unseen.total} unseen (${s.unseen.vowels} vowels, ${s.unseen.consonants} consonants, ${s.unseen.blanks} blanks) · bag ${s.unseen.bag}`,
    board: s.board.join('\n'),
  };
}

function meFields(s: MeSnapshot): Fields {
  const lastRound = s.rounds.at(-1);
  return {
    score: s.players.map((p) => `${p.name} ${p.score}`).join(' · '),
    turn: s.ended ? result(s.players, s.ended.winners) : `round ${s.round}: ${s.phase}`,
    last: lastRound
      ? `round ${lastRound.round}: ${lastRound.words
          .map((w) => `${s.players[w.player]?.name ?? '?'} ${w.word} ${w.withdrawn ? 'withdrawn' : w.score}`)
          .join(', ')}`
      : '',
    unseen: `bag ${s.bag} · podium ${s.podium.join(' ')}`,
    board: s.boards.map((b, i) => `board ${i + 1}\n${b.board.join('\n')}`).join('\n\n'),
  };
}

function result(players: readonly { name: string; score: number }[], winners: readonly number[]): string {
  const scores = players.map((p) => p.score).sort((a, b) => b - a);
  const spread = (scores[0] ?? 0) - (scores[1] ?? 0);
  const names = winners.map((w) => players[w]?.name ?? '?');
  return names.length > 1
    ? `game over: ${names.join(' and ')} tie`
    : `game over: ${names[0]} wins by ${spread}`;
}

/** The last line of the score sheet as people say it: `Ann: JOEY H5 14`, `Ben passed`, `Ann exchanged 3`. */
function lastMove(turns: readonly TurnView[], name: (i: number) => string): string {
  const t = turns.at(-1);
  if (!t) return '';
  const who = name(t.player);
  const signed = t.points >= 0 ? `+${t.points}` : `${t.points}`;
  switch (t.kind) {
    case 'play':
      return `${who}: ${t.words?.[0]?.word ?? ''} ${t.position ?? ''} ${t.points}`
        .replace(/\s+/g, ' ')
        .trim();
    case 'pass':
      return `${who} passed`;
    case 'exchange':
      return `${who} exchanged`;
    case 'withdraw':
      return `${who}'s play was withdrawn (${signed})`;
    default:
      return `${who}: ${t.kind} ${signed}`;
  }
}
