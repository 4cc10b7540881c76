/** The start page: create a game (keeping its scorekeeper link) and list the games on this server. */
import type { GameConfigInput } from '../server/protocol/index.ts';
import { el } from './render.ts';

const form = document.getElementById('new-game') as HTMLFormElement;
const links = document.getElementById('links')!;
const list = document.getElementById('games')!;
/** Why the game could not be created, under the form; cleared by the next attempt. */
const createError = document.getElementById('create-error')!;

interface Listed {
  id: string;
  players: string[];
  variant?: string;
}

function gameLinks({ id, players, variant }: Listed, token?: string) {
  const box = el('p', { class: 'links' });
  const a = (href: string, text: string) => {
    const link = el('a', { href }, text);
    box.append(link, ' ');
  };
  a(`/board.html?game=${id}`, 'scoreboard');
  if (token) {
    a(`/board.html?game=${id}#token=${token}`, 'scorekeeper');
    // Scrabble Me: a camera at every seat; otherwise one camera over the board.
    if (variant === 'scrabble-me')
      for (const [i, p] of players.entries())
        a(`/camera.html?game=${id}&seat=${i + 1}#token=${token}`, `${p}'s camera`);
    else a(`/camera.html?game=${id}#token=${token}`, 'camera');
  }
  a(`/overlay.html?game=${id}&fields=scores,last`, 'OBS overlay');
  return box;
}

form.onsubmit = async (e) => {
  e.preventDefault();
  createError.hidden = true;
  createError.textContent = '';
  const data = new FormData(form);
  const players = String(data.get('players'))
    .split('\n')
    .map((p) => p.trim())
    .filter(Boolean);
  const res = await fetch('/api/games', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      players,
      lang: data.get('lang') as GameConfigInput['lang'],
      // Scrabble Me reads each board when its player ends the turn.
      capture:
        data.get('variant') === 'scrabble-me'
          ? 'button'
          : (data.get('capture') as GameConfigInput['capture']),
      challengeRule: data.get('challengeRule') as GameConfigInput['challengeRule'],
      variant: data.get('variant') as GameConfigInput['variant'],
      ...(data.get('variant') === 'scrabble-me'
        ? { podium: String(data.get('podium')).replace(/\s+/g, '') }
        : {}),
    } satisfies GameConfigInput),
  }).catch(() => undefined);
  if (!res) {
    createError.textContent = 'The game was not created: the server could not be reached.';
    createError.hidden = false;
    return;
  }
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    createError.textContent = `The game was not created: ${body.error?.message ?? 'the server refused it'}.`;
    createError.hidden = false;
    return;
  }
  links.replaceChildren(
    el('p', {}, 'Keep the scorekeeper link: it is the only way to change this game.'),
    gameLinks({ id: body.id, players, variant: String(data.get('variant')) }, body.token),
  );
  void refresh();
};

async function refresh() {
  const { games } = (await (await fetch('/api/games')).json()) as { games: Listed[] };
  list.replaceChildren(
    ...games.map((g) => {
      const li = el('li', {}, `${g.players.join(' v ')} `);
      li.append(gameLinks(g));
      return li;
    }),
  );
}
void refresh();
