/**
 * OBS overlay: transparent, fields chosen by URL (`fields=scores,names,last,unseen,board`), style by URL
 * (`colour`, `size`, `font`), and a neutral placeholder while no game is running.
 */
import type { GameSnapshot } from '../server/protocol/index.ts';
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

function render(s: GameSnapshot) {
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
  root.replaceChildren(...parts);
}

if (game) connect(game, render, () => {});
