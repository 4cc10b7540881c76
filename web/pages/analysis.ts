/**
 * The post-game analysis (`/analysis.html?game=ID#token=…`, the scorekeeper's): every move of the game against the
 * best plays of the rack kept with it, and each player's equity given up. A move whose rack was not kept is listed,
 * not ranked. The token stays in the address's fragment, never sent but as the request's bearer.
 */
import type { AnalyzedTurn, GameAnalysis } from '../../server/protocol/index.ts';
import { failure, getGameAnalysis } from '../api.ts';
import { el, playText } from '../ui/render.ts';

const game = new URLSearchParams(location.search).get('game') ?? '';
const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
const status = document.getElementById('analysis-status')!;
const playersTable = document.getElementById('analysis-players') as HTMLTableElement;
const turnsTable = document.getElementById('analysis-turns') as HTMLTableElement;

function turnRow(t: AnalyzedTurn): HTMLTableRowElement {
  const best = t.best[0];
  const row = el('tr', t.equityLost !== null && t.equityLost > 0 ? { class: 'lost' } : {});
  row.append(
    el('td', {}, String(t.turn)),
    el('td', {}, t.player),
    el('td', {}, t.rack ?? '–'),
    el('td', {}, playText(t.played)),
    el(
      'td',
      {},
      t.rack === null
        ? 'not kept'
        : t.played.rank === null
          ? 'not among its plays'
          : `${t.played.rank} of ${t.options}`,
    ),
    el('td', {}, best ? playText(best) : '–'),
    el('td', {}, t.equityLost === null ? '–' : t.equityLost.toFixed(1)),
  );
  return row;
}

function show(a: GameAnalysis): void {
  playersTable.tBodies[0]!.replaceChildren(
    ...a.players.map((p) => {
      const row = el('tr');
      row.append(
        el('th', { scope: 'row' }, p.name),
        el('td', {}, String(p.moves)),
        el('td', {}, String(p.ranked)),
        el('td', {}, p.equityLost.toFixed(1)),
      );
      return row;
    }),
  );
  turnsTable.tBodies[0]!.replaceChildren(...a.turns.map(turnRow));
  playersTable.hidden = false;
  turnsTable.hidden = false;
  const ranked = a.turns.filter((t) => t.rack !== null).length;
  status.textContent = `${a.turns.length} moves, ${ranked} with the rack kept; words checked against ${a.lexicon}.`;
}

async function load(): Promise<void> {
  if (!game || !token) {
    status.textContent = 'Open this page from the scorekeeper page: it needs the game and its token.';
    return;
  }
  const answer = await getGameAnalysis(game, token);
  if (answer.ok) show(answer.body);
  else status.textContent = failure(answer);
}

void load();
