/**
 * Scrabble Me on the scoreboard: every board small, side by side, who holds it and whether its turn has ended;
 * the totals, the rounds' words and scores, who picks first, the podium and the bag; with the scorekeeper's
 * token, the table's actions (end a board's turn, challenge, blank swap, refill, podium, no bonus word, undo) and
 * fixing a tile of a round already scored (a held reading has its panel at the top of the page: board.ts, held.ts).
 */
import type { MeActionInput, MeSnapshot } from '../../server/protocol/index.ts';
import { askText, choose, confirmDialog } from './dialog.ts';
import { actionButton, askTile, boardView, el, onSquareClick, setLetters } from './render.ts';

/** Sends a scorekeeper's action: only what the protocol declares for a Scrabble Me game. */
type Act = (action: MeActionInput) => void;

/** What the table is doing now, in words. */
export function meStatus(s: MeSnapshot): string {
  const name = (p: number | null | undefined) => (p == null ? '?' : (s.players[p]?.name ?? '?'));
  switch (s.phase) {
    case 'build': {
      const out = s.players.filter((p) => p.sittingOut).map((p) => p.name);
      return `Round ${s.round}${s.lastRound ? ' (the last)' : ''}: everyone builds a word${
        out.length ? ` · ${out.join(', ')} sit${out.length > 1 ? '' : 's'} out` : ''
      }`;
    }
    case 'scored':
      return `Round ${s.round} scored · challenges now · ${name(s.swaps[0])} swaps boards (a blank was played)`;
    case 'refill':
      return `Refill: ${name(s.firstPick)} picks first · next to pick: ${name(s.picks[0])} (${s.picks.length} tile${s.picks.length === 1 ? '' : 's'} to go)`;
    case 'podium':
      return 'Refill the podium from the bag';
    case 'bonus':
      return `Bonus word: ${name(s.bonusPlayer)} alone builds one more word`;
    case 'ended':
      return s.ended
        ? `Game over (${s.ended.reason}): ${s.ended.winners.map((w) => name(w)).join(' and ')} won`
        : 'Game over';
  }
}

export function meView(s: MeSnapshot, act?: Act): HTMLElement[] {
  const boards = el('div', { class: 'me-boards' });
  s.boards.forEach((b, i) => {
    const fig = el('figure', { class: `me-board${b.ended ? ' ended' : ''}`, 'data-board': String(i) });
    const state = s.phase === 'build' ? (b.ended ? ' · turn ended' : ' · building') : '';
    // The scorekeeper sees the squares of the board's last reading that the game's context decided (dashed).
    const resolved = act && b.decided?.how === 'context' ? (b.decided.squares ?? []) : [];
    const view = boardView(b.board, { last: b.lastWord, resolved });
    // The scorekeeper fixes a tile the camera misread in a round already scored: the totals follow.
    if (act) {
      onSquareClick(view, async (row, col, sq) => {
        if (!sq.classList.contains('tile')) return;
        const tile = await askTile(
          `Board ${i + 1}, ${sq.dataset.square}: which letter is it?`,
          true,
          setLetters(s.lang),
        );
        if (tile) act({ type: 'correct', board: i, row, col, tile });
      });
    }
    fig.append(view, el('figcaption', {}, `Board ${i + 1} · ${s.players[b.holder]?.name ?? '?'}${state}`));
    // A held reading has its own panel (web/ui/held.ts): the board says so.
    if (b.pending) {
      fig.classList.add('held');
      fig.append(el('p', { class: 'held-note' }, '● a reading waits for confirmation'));
    }
    boards.append(fig);
  });

  const side = el('div', { class: 'side' });
  side.append(meScoresView(s), el('p', { class: 'me-status' }, meStatus(s)), podiumView(s));
  if (s.firstPick !== null)
    side.append(el('p', { class: 'first-pick' }, `Picks first: ${s.players[s.firstPick]?.name ?? '?'}`));
  const rounds = el('ol', { class: 'rounds' });
  for (const r of s.rounds) rounds.append(roundView(s, r));
  side.append(rounds);
  if (act) side.append(controls(s, act));
  return [boards, side];
}

/** Each player's total, and who sits out this round. */
export function meScoresView(s: MeSnapshot): HTMLElement {
  const scores = el('div', { class: 'scores' });
  s.players.forEach((p, i) => {
    const row = el('div', { class: `player${p.sittingOut ? ' sitting-out' : ''}`, 'data-player': String(i) });
    row.append(
      el('span', { class: 'name' }, `${p.name}${p.sittingOut ? ' (sits out)' : ''}`),
      el('span', { class: 'score' }, String(p.score)),
    );
    scores.append(row);
  });
  return scores;
}

/** The tiles face up on the podium and the tiles left in the bag. */
export function podiumView(s: MeSnapshot): HTMLElement {
  return el(
    'p',
    { class: 'podium' },
    `Podium: ${s.podium.map((t) => (t === '?' ? 'blank' : t)).join(' ') || 'empty'} · bag ${s.bag}`,
  );
}

/** A round: each player's word and its score (0 when challenged off), and the bonus word of the last round. */
export function roundView(s: MeSnapshot, r: MeSnapshot['rounds'][number]): HTMLElement {
  const li = el('li', { class: 'round', 'data-round': String(r.round) });
  li.append(el('span', { class: 'label' }, `Round ${r.round}`));
  for (const w of r.words) {
    const text = `${s.players[w.player]?.name ?? '?'} ${w.word} ${w.withdrawn ? '0 (challenged off)' : w.score}`;
    li.append(el('span', { class: `word${w.withdrawn ? ' withdrawn' : ''}` }, text));
  }
  if (r.bonus)
    li.append(
      el('span', { class: 'word bonus' }, `bonus: ${s.players[r.bonus.player]?.name} ${r.bonus.score}`),
    );
  return li;
}

function controls(s: MeSnapshot, act: Act): HTMLElement {
  const box = el('div', { class: 'controls' });
  const name = (p: number) => s.players[p]?.name ?? '?';
  /** Asks which player, one button per seat (`except` left out). */
  const ask = (title: string, text?: string, except?: number) =>
    choose({
      title,
      text,
      choices: s.players.flatMap((p, i) =>
        i === except ? [] : [{ label: p.name, value: i, name: `player-${i}` }],
      ),
    });
  const button = (
    label: string,
    action: () => MeActionInput | undefined | Promise<MeActionInput | undefined>,
  ) => actionButton(box, label, action, act);
  const letters = setLetters(s.lang);
  const tile = (t: string) => t === '?' || (letters ? letters.includes(t) : /^\p{L}$/u.test(t));
  const phase = s.phase;
  // Only the actions of the table's phase: building (or the bonus word), challenges and swaps after the scoring,
  // the refill, the podium; once the game has ended, only Undo.
  if (phase === 'build' || phase === 'bonus')
    s.players.forEach((p, i) => {
      button(`End turn at ${p.name}'s seat`, () => ({ type: 'end-turn', camera: i }));
    });
  if (phase === 'scored' || phase === 'refill')
    button('Challenge', async () => {
      const words = s.rounds.at(-1)?.words.filter((w) => !w.withdrawn) ?? [];
      const player = await choose({
        title: 'Whose word is challenged?',
        choices: (words.length ? words.map((w) => w.player) : s.players.map((_, i) => i)).map((i) => ({
          label: words.length ? `${name(i)}: ${words.find((w) => w.player === i)?.word ?? ''}` : name(i),
          value: i,
          name: `player-${i}`,
        })),
      });
      if (player === undefined) return undefined;
      const challenger = await ask('Who challenged?', `${name(player)}'s word is challenged.`, player);
      if (challenger === undefined) return undefined;
      const acceptable = await choose({
        title: 'Is the word acceptable?',
        text: `${name(challenger)} challenged ${name(player)}'s word.`,
        choices: [
          { label: 'The word is acceptable', value: true, name: 'acceptable' },
          { label: 'The word is not acceptable', value: false, name: 'phony' },
        ],
      });
      return acceptable === undefined ? undefined : { type: 'challenge', player, challenger, acceptable };
    });
  if (phase === 'scored')
    button('Swap boards', async () => {
      const player = s.swaps[0] ?? (await ask('Who played the blank?'));
      if (player === undefined) return undefined;
      const other = await ask(`${name(player)} swaps boards with whom?`, undefined, player);
      return other === undefined ? undefined : { type: 'swap', player, with: other };
    });
  if (phase === 'refill')
    button('Refill', async () => {
      const podium = s.podium.map((t) => (t === '?' ? 'blank (?)' : t)).join(' ') || 'empty';
      const picks = await askText({
        title: 'Refill the racks',
        text: `Next to pick: ${s.picks.map(name).join(', ')}. Podium: ${podium}.`,
        field: {
          label: 'Each tile taken, in turn: bag, or the podium letter',
          placeholder: 'bag, bag, E, bag',
          name: 'picks',
        },
        submit: 'Record the picks',
        check: (raw) => {
          const picks = raw
            .split(/[\s,]+/)
            .filter(Boolean)
            .map((p) => (p.toLowerCase() === 'bag' ? 'bag' : p.toUpperCase()));
          if (picks.length === 0) return { error: 'Give at least one pick: bag, or a letter of the podium.' };
          if (picks.length > s.picks.length)
            return { error: `Only ${s.picks.length} tile${s.picks.length === 1 ? '' : 's'} to pick.` };
          const wrong = picks.find((p) => p !== 'bag' && !s.podium.includes(p));
          return wrong
            ? { error: `${wrong} is not on the podium: bag, or a podium letter.` }
            : { value: picks };
        },
      });
      return picks === undefined ? undefined : { type: 'refill', picks };
    });
  if (phase === 'podium')
    button('Podium', async () => {
      const letters = await askText({
        title: 'Refill the podium',
        text: `The tiles put on the podium from the bag (bag: ${s.bag}).`,
        field: { label: 'Letters (? for a blank)', name: 'letters' },
        submit: 'Record the podium',
        check: (raw) => {
          const text = raw.replace(/[\s,]+/g, '').toUpperCase();
          const wrong = [...text].find((t) => !tile(t));
          return wrong ? { error: `'${wrong}' is not a tile of this set.` } : { value: text };
        },
      });
      return letters === undefined ? undefined : { type: 'podium', letters };
    });
  if (phase === 'bonus') button('No bonus word', () => ({ type: 'no-bonus' }));
  button('Undo', async () =>
    (await confirmDialog({
      title: 'Undo the last thing recorded?',
      text: 'It is taken back (a round, a challenge, a swap, a pick…), and the totals re-derive.',
      yes: 'Undo the last move',
      no: 'Keep it',
    }))
      ? { type: 'undo' }
      : undefined,
  );
  return box;
}
