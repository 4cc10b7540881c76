/**
 * OBS overlay: transparent, fields chosen by URL (`fields=scores,names,last,unseen,board`), style by URL
 * (`colour`, `size`, `font`), and a neutral placeholder while no game is running.
 */
import type { GameSnapshot, MeSnapshot, Snapshot } from '../server/protocol/index.ts';
import { connect } from './connection.ts';
import { boardView, el } from './render.ts';

const params = new URLSearchParams(location.search);
const game = params.get('game');
const fields = new Set((params.get('fields') ?? 'scores,last').split(','));
const root = document.getElementById('overlay')!;
for (const [name, css] of [
  ['colour', '--colour'],
  ['size', '--size'],
  ['font', '--font'],
] as const) {
  const v = params.get(name);
  if (v && /^[#\w\s,.-]{1,40}$/.test(v)) document.documentElement.style.setProperty(css, v);
}

function render(s: Snapshot) {
  root.replaceChildren(...(s.variant === 'scrabble-me' ? meParts(s) : classicParts(s)));
}

/** Scrabble Me: the totals, the latest round's words, the boards small side by side. */
function meParts(s: MeSnapshot): HTMLElement[] {
  const parts: HTMLElement[] = [];
  if (fields.has('scores') || fields.has('names')) {
    for (const p of s.players) {
      const row = el('div', { class: 'player' });
      row.append(el('span', { class: 'name' }, p.name));
      if (fields.has('scores')) row.append(el('span', { class: 'score' }, String(p.score)));
      parts.push(row);
    }
  }
  const round = s.rounds.at(-1);
  if (fields.has('last') && round) {
    const words = round.words.map(
      (w) => `${s.players[w.player]?.name}: ${w.word} +${w.withdrawn ? 0 : w.score}`,
    );
    parts.push(el('div', { class: 'last' }, `Round ${round.round} · ${words.join(' · ')}`));
  }
  if (fields.has('unseen'))
    parts.push(el('div', { class: 'unseen' }, `podium ${s.podium.join(' ')} · bag ${s.bag}`));
  if (fields.has('board')) {
    const boards = el('div', { class: 'me-boards' });
    for (const b of s.boards) boards.append(boardView(b.board, b.lastWord));
    parts.push(boards);
  }
  return parts;
}

function classicParts(s: GameSnapshot): HTMLElement[] {
  const parts: HTMLElement[] = [];
  if (fields.has('scores') || fields.has('names')) {
    for (const [i, p] of s.players.entries()) {
      const row = el('div', { class: `player${i === s.toMove ? ' to-move' : ''}` });
      row.append(el('span', { class: 'name' }, p.name));
      if (fields.has('scores')) row.append(el('span', { class: 'score' }, String(p.score)));
      parts.push(row);
    }
  }
  const last = [...s.turns]
    .reverse()
    .find((t) => t.kind === 'play' || t.kind === 'pass' || t.kind === 'exchange');
  if (fields.has('last') && last) {
    const text = last.words
      ? `${s.players[last.player]!.name}: ${last.words.map((w) => w.word).join(', ')} +${last.points}`
      : `${s.players[last.player]!.name}: ${last.kind}`;
    parts.push(el('div', { class: 'last' }, text));
  }
  if (fields.has('unseen'))
    parts.push(el('div', { class: 'unseen' }, `${s.unseen.total} unseen · bag ${s.unseen.bag}`));
  if (fields.has('board')) parts.push(boardView(s.board, s.lastMove));
  return parts;
}

if (game) connect(game, render, () => {});
