/**
 * The scorekeeper's "Best plays" panel: a move of the game and the rack it was played from (typed: the scorekeeper's
 * word, kept with the move unless they say not to: in their GCG download, never a viewer's), and the server's answer:
 * the five best plays by equity, where the move played ranked and the equity it gave up. Made once and kept across
 * renders, like the Share panel.
 */
import type { AnalysisView, GameSnapshot } from '../../server/protocol/index.ts';
import { failure, postAnalysis, sendAction } from '../api.ts';
import { el } from './render.ts';

/** The moves a rack can be asked about, counted as the server counts them: plays, passes and exchanges (a turn lost
 *  to a challenge is a pass in GCG). */
export function movesToAnalyse(s: GameSnapshot): number {
  return s.turns.filter((t) => ['play', 'pass', 'exchange', 'lost-turn'].includes(t.kind)).length;
}

export function bestPlaysPanel(
  game: string,
  token: string,
): {
  panel: HTMLDetailsElement;
  update: (s: GameSnapshot) => void;
} {
  const panel = el('details', { class: 'best-details' }) as HTMLDetailsElement;
  const form = el('form', { class: 'best-form' });
  const turn = el('input', {
    type: 'number',
    min: '1',
    name: 'turn',
    'aria-label': 'Move number',
  }) as HTMLInputElement;
  const rack = el('input', {
    type: 'text',
    name: 'rack',
    maxlength: '9',
    autocomplete: 'off',
    placeholder: 'kept, or AEIRST?',
    'aria-label': 'Rack',
  }) as HTMLInputElement;
  const keep = el('input', { type: 'checkbox', name: 'keep', checked: '' }) as HTMLInputElement;
  const keepLabel = el('label', { class: 'keep' }, ' ');
  keepLabel.append(keep, ' keep the rack with the move');
  const go = el('button', { type: 'submit' }, 'Show best plays');
  const out = el('div', { class: 'best-result', 'aria-live': 'polite' });
  const moveLabel = el('label', {}, 'Move ');
  moveLabel.append(turn);
  const rackLabel = el('label', {}, ' rack held ');
  rackLabel.append(rack);
  form.append(moveLabel, rackLabel, keepLabel, ' ', go);
  panel.append(
    el('summary', {}, 'Best plays: what the rack could have played'),
    el(
      'p',
      { class: 'hint' },
      'Type the tiles the player held for a move (? for a blank), or leave it empty for the rack kept with the move (typed before, or seen by the camera at the player’s place). Only you see this: a rack kept with its move is in your GCG download, never a viewer’s.',
    ),
    form,
    out,
  );
  let moves = 0;
  let asked = false;
  form.onsubmit = async (e) => {
    e.preventDefault();
    const n = Number(turn.value);
    const tiles = rack.value.trim().toUpperCase();
    if (!Number.isInteger(n) || n < 1 || n > moves) {
      out.replaceChildren(
        el('p', { class: 'error' }, moves ? `Choose a move from 1 to ${moves}.` : 'No move yet.'),
      );
      return;
    }
    if (tiles && !/^[\p{Lu}?]{1,9}$/u.test(tiles)) {
      out.replaceChildren(
        el(
          'p',
          { class: 'error' },
          'Type the rack: 1 to 9 letters, ? for a blank (or nothing: the rack kept).',
        ),
      );
      return;
    }
    go.disabled = true;
    out.replaceChildren(el('p', {}, 'Working it out…'));
    // Nothing typed: the rack kept with the move, which the answer names.
    const answer = await postAnalysis(game, token, n, tiles || undefined);
    const kept =
      answer.ok && tiles && keep.checked
        ? await sendAction(game, token, { type: 'rack', turn: n, rack: tiles })
        : undefined;
    go.disabled = false;
    out.replaceChildren(
      ...(answer.ok ? resultView(answer.body) : [el('p', { class: 'error' }, failure(answer))]),
      ...(kept
        ? [
            kept.ok
              ? el('p', { class: 'kept' }, `Rack kept with move ${n}.`)
              : el('p', { class: 'error' }, `The rack was not kept: ${failure(kept)}`),
          ]
        : []),
    );
  };
  const update = (s: GameSnapshot) => {
    const now = movesToAnalyse(s);
    // The newest move is the one asked about, until the scorekeeper chooses another.
    if (!asked || Number(turn.value) === moves) turn.value = String(now || '');
    moves = now;
    turn.max = String(Math.max(1, now));
  };
  turn.oninput = () => {
    asked = true;
  };
  return { panel, update };
}

function resultView(a: AnalysisView): HTMLElement[] {
  const played = a.played;
  const move = `${played.position} ${played.word}`.trim();
  const verdict =
    played.rank === 1
      ? `${move} (${played.score}) was the best play.`
      : played.rank !== null
        ? `${move} (${played.score}) ranked ${played.rank} of ${a.options}, giving up ${a.equityLost} points of equity.`
        : a.rackHolds === false
          ? `${move} (${played.score}) uses tiles that are not on this rack.`
          : `${move} (${played.score}) is not among this rack's plays${played.valid ? '' : `: a word is not in ${a.lexicon}`}.`;
  const table = el('table', { class: 'best-table' });
  const head = el('tr');
  for (const h of ['', 'Play', 'Score', 'Equity']) head.append(el('th', {}, h));
  table.append(head);
  a.best.forEach((b, k) => {
    const row = el('tr', b.played ? { class: 'played' } : {});
    row.append(
      el('td', {}, String(k + 1)),
      el('td', {}, `${b.position} ${b.word}`.trim()),
      el('td', {}, String(b.score)),
      el('td', {}, String(b.equity)),
    );
    table.append(row);
  });
  return [
    el('p', { class: 'best-verdict' }, verdict),
    table,
    el(
      'p',
      { class: 'hint' },
      `${a.rack ? `Rack ${a.rack}. ` : ''}Lexicon: ${a.lexicon}. Equity: the score plus the value of the tiles kept.`,
    ),
  ];
}
