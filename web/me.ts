/**
 * Scrabble Me on the scoreboard: every board small, side by side, who holds it and whether its turn has ended;
 * the totals, the rounds' words and scores, who picks first, the podium and the bag; with the scorekeeper's
 * token, the table's actions (end a board's turn, challenge, blank swap, refill, podium, no bonus word, undo) and
 * fixing a tile: a held reading's square, or a tile of a round already scored.
 */
import type { MeActionInput, MeSnapshot } from '../server/protocol/index.ts';
import { actionButton, askTile, boardView, el, onSquareClick } from './render.ts';

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
    const view = boardView(b.board, b.lastWord, [], resolved);
    // The scorekeeper fixes a tile the camera misread in a round already scored: the totals follow.
    if (act) {
      onSquareClick(view, (row, col, sq) => {
        if (!sq.classList.contains('tile')) return;
        const tile = askTile(
          `Board ${i + 1}, ${sq.dataset.square}: which letter is it? (? a blank, . no tile)`,
        );
        if (tile) act({ type: 'correct', board: i, row, col, tile });
      });
    }
    fig.append(view, el('figcaption', {}, `Board ${i + 1} · ${s.players[b.holder]?.name ?? '?'}${state}`));
    if (b.pending) fig.append(pendingBoard(s, i, act));
    boards.append(fig);
  });

  const side = el('div', { class: 'side' });
  const scores = el('div', { class: 'scores' });
  s.players.forEach((p, i) => {
    const row = el('div', { class: `player${p.sittingOut ? ' sitting-out' : ''}`, 'data-player': String(i) });
    row.append(
      el('span', { class: 'name' }, `${p.name}${p.sittingOut ? ' (sits out)' : ''}`),
      el('span', { class: 'score' }, String(p.score)),
    );
    scores.append(row);
  });
  side.append(scores, el('p', { class: 'me-status' }, meStatus(s)));
  side.append(
    el(
      'p',
      { class: 'podium' },
      `Podium: ${s.podium.map((t) => (t === '?' ? 'blank' : t)).join(' ') || 'empty'} · bag ${s.bag}`,
    ),
  );
  if (s.firstPick !== null)
    side.append(el('p', { class: 'first-pick' }, `Picks first: ${s.players[s.firstPick]?.name ?? '?'}`));
  const rounds = el('ol', { class: 'rounds' });
  for (const r of s.rounds) {
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
    rounds.append(li);
  }
  side.append(rounds);
  if (act) side.append(controls(s, act));
  return [boards, side];
}

function pendingBoard(s: MeSnapshot, board: number, act?: Act): HTMLElement {
  const p = s.boards[board]!.pending!;
  const box = el('div', { class: 'pending' });
  box.append(el('p', { class: 'reasons' }, `Waiting for confirmation: ${p.reasons.join('; ')}`));
  const view = boardView(p.board, [], p.squares);
  box.append(view, el('img', { src: p.photo, alt: 'the photo behind this reading', class: 'photo' }));
  if (act) {
    onSquareClick(view, (row, col, sq) => {
      const tile = askTile(`What is on ${sq.dataset.square}? (a letter, ? for a blank, . for empty)`);
      if (tile) act({ type: 'correct', board, row, col, tile });
    });
    const ok = el('button', { type: 'button', 'data-action': 'confirm' }, 'Confirm this board');
    ok.onclick = () => act({ type: 'confirm', board, reading: [...p.board] });
    box.append(ok);
  }
  return box;
}

function controls(s: MeSnapshot, act: Act): HTMLElement {
  const box = el('div', { class: 'controls' });
  const seats = s.players.map((p, i) => `${i + 1}=${p.name}`).join(', ');
  const ask = (question: string) => {
    const n = Number(prompt(`${question} ${seats}`));
    return Number.isInteger(n) && n >= 1 && n <= s.players.length ? n - 1 : undefined;
  };
  const button = (label: string, action: () => MeActionInput | undefined) =>
    actionButton(box, label, action, act);
  s.players.forEach((p, i) => {
    button(`End turn at ${p.name}'s seat`, () => ({ type: 'end-turn', camera: i }));
  });
  button('Challenge', () => {
    const player = ask('Whose word is challenged?');
    const challenger = player === undefined ? undefined : ask('Who challenged?');
    if (player === undefined || challenger === undefined) return undefined;
    return {
      type: 'challenge',
      player,
      challenger,
      acceptable: confirm('Is the word acceptable (OK) or not (Cancel)?'),
    };
  });
  button('Swap boards', () => {
    const player = s.swaps[0] ?? ask('Who played the blank?');
    const other = player === undefined ? undefined : ask(`${s.players[player]?.name} swaps with whom?`);
    return player === undefined || other === undefined ? undefined : { type: 'swap', player, with: other };
  });
  button('Refill', () => {
    const text = prompt('Each tile taken, in turn: "bag", or the podium letter (e.g. bag, bag, E, bag)');
    const picks = text
      ?.split(/[\s,]+/)
      .filter(Boolean)
      .map((p) => (p.toLowerCase() === 'bag' ? 'bag' : p.toUpperCase()));
    return picks?.length ? { type: 'refill', picks } : undefined;
  });
  button('Podium', () => {
    const letters = prompt('Letters put on the podium from the bag');
    return letters === null
      ? undefined
      : { type: 'podium', letters: letters.replace(/\s+/g, '').toUpperCase() };
  });
  button('No bonus word', () => ({ type: 'no-bonus' }));
  button('Undo', () => (confirm('Take back the last thing recorded?') ? { type: 'undo' } : undefined));
  return box;
}
