/**
 * A game's broadcast fields: short texts a stream's overlay shows (OBS text sources, as Woogles' broadcast fields
 * serve them): the scores, whose turn it is (or who won), the last move, the tiles unseen, each player's time used.
 * Pure: a snapshot (and the time now, for the running turn) in, the texts out; the HTTP routes serve them as text
 * and as a server-sent-events stream.
 */
import type { GameSnapshot, MeSnapshot, Snapshot, TurnView } from '../../protocol/index.ts';

export const fieldNames = ['score', 'turn', 'last', 'unseen', 'board', 'clock', 'best'] as const;
export type FieldName = (typeof fieldNames)[number];
export type Fields = Record<FieldName, string>;

export function fieldsOf(s: Snapshot, now = Date.now()): Fields {
  return s.variant === 'scrabble-me' ? meFields(s) : classicFields(s, now);
}

/** Each player's time used as `m:ss` (`h:mm:ss` from an hour), the running turn's counted up to `now`. */
export function clockTexts(s: GameSnapshot, now: number): string[] {
  const running = s.clock.running ? Math.max(0, now - Date.parse(s.clock.since)) : 0;
  return s.clock.used.map((ms, i) =>
    duration(ms + (i === s.toMove && Number.isFinite(running) ? running : 0)),
  );
}

export function duration(ms: number): string {
  const total = Math.floor(Math.max(0, ms) / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

function classicFields(s: GameSnapshot, now: number): Fields {
  const name = (i: number) => s.players[i]?.name ?? '?';
  return {
    score: s.players.map((p) => `${p.name} ${p.score}`).join(' – '),
    turn: s.ended ? result(s.players, s.ended.winners) : `${name(s.toMove)} to play`,
    last: lastMove(s.turns, name),
    unseen: `${s.unseen.total} unseen (${s.unseen.vowels} vowels, ${s.unseen.consonants} consonants, ${s.unseen.blanks} blanks) · bag ${s.unseen.bag}`,
    board: s.board.join('\n'),
    clock: clockTexts(s, now)
      .map((t, i) => `${name(i)} ${t}`)
      .join(' – '),
    best: s.revealed ? revealedText(s.revealed) : '',
  };
}

/** A move shown after the rack delay: `move 12, Ann (AEINRST?): 8D RETAINS 64 · best 8D RETAINS 64`. */
export function revealedText(m: NonNullable<GameSnapshot['revealed']>): string {
  const play = (p: { position: string; word: string; score: number }) =>
    `${p.position ? `${p.position} ` : ''}${p.word} ${p.score}`;
  const best = m.best
    ? ` · best ${play(m.best)}${m.equityLost ? ` (${m.equityLost.toFixed(1)} equity given up)` : ''}`
    : '';
  return `move ${m.turn}, ${m.player} (${m.rack}): ${play(m.played)}${best}`;
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
    // Scrabble Me's rounds are built at the same time: no turn clock.
    clock: '',
    best: '',
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
