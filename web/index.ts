/** The start page: create a game (keeping its scorekeeper link) and list the games on this server. */
import { el } from './render.ts';

const form = document.getElementById('new-game') as HTMLFormElement;
const links = document.getElementById('links')!;
const list = document.getElementById('games')!;

function gameLinks(id: string, token?: string) {
  const box = el('p', { class: 'links' });
  const a = (href: string, text: string) => {
    const link = el('a', { href }, text);
    box.append(link, ' ');
  };
  a(`/board.html?game=${id}`, 'scoreboard');
  if (token) {
    a(`/board.html?game=${id}#token=${token}`, 'scorekeeper');
    a(`/camera.html?game=${id}#token=${token}`, 'camera');
  }
  a(`/overlay.html?game=${id}&fields=scores,last`, 'OBS overlay');
  return box;
}

form.onsubmit = async (e) => {
  e.preventDefault();
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
      lang: data.get('lang'),
      capture: data.get('capture'),
      challengeRule: data.get('challengeRule'),
    }),
  });
  const body = await res.json();
  if (!res.ok) return void alert(body.error?.message ?? 'could not create the game');
  links.replaceChildren(
    el('p', {}, 'Keep the scorekeeper link: it is the only way to change this game.'),
    gameLinks(body.id, body.token),
  );
  void refresh();
};

async function refresh() {
  const { games } = (await (await fetch('/api/games')).json()) as {
    games: { id: string; players: string[] }[];
  };
  list.replaceChildren(
    ...games.map((g) => {
      const li = el('li', {}, `${g.players.join(' v ')} `);
      li.append(gameLinks(g.id));
      return li;
    }),
  );
}
void refresh();
