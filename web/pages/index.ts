/**
 * The start page: create a game and share its links (QR codes for the phones at the table), keep each created
 * game's scorekeeper link on this computer ("Your games on this computer"), and list the games on this server with
 * their scores, status and date (an event's games link to its hall); a finished or abandoned game whose scorekeeper
 * link this computer keeps can be archived, and restored from "Show archived".
 *
 * Size: the start form (players, rules, camera, overlay) and the two lists, each a few lines of DOM wiring.
 */
import type { GameConfigInput } from '../../server/protocol/index.ts';
import { setArchived as archiveRequest, createGame, failure, getRackKeys } from '../api.ts';
import { hallHref, type ListedGame, listGames, playersWithScores } from '../ui/listing.ts';
import { browserTileSet, el, nameTileSetOptions } from '../ui/render.ts';
import { copyText, gameShareLinks, sharePanel } from '../ui/share.ts';

const form = document.getElementById('new-game') as HTMLFormElement;
const links = document.getElementById('links')!;
const list = document.getElementById('games')!;
/** Why the game could not be created, under the form; cleared by the next attempt. */
const createError = document.getElementById('create-error')!;
const mine = document.getElementById('my-games')!;
const mineList = document.getElementById('my-games-list')!;
/** The fields of the game chosen: the podium's tiles only for Scrabble Me; the game clock's minutes not for it, whose
 *  rounds are built at the same time. */
const variantSelect = form.elements.namedItem('variant') as HTMLSelectElement;
const clockField = document.getElementById('clock-field')!;
const clockInput = form.elements.namedItem('clockMinutes') as HTMLInputElement;
const delayField = document.getElementById('delay-field')!;
const delaySelect = form.elements.namedItem('rackDelay') as HTMLSelectElement;
const rackCameraField = document.getElementById('rack-camera-field')!;
const rackCameraSelect = form.elements.namedItem('rackCamera') as HTMLSelectElement;
const playersInput = form.elements.namedItem('players') as HTMLTextAreaElement;
/** The camera's place, one option per player typed, named after them. */
function showPlaces(): void {
  const names = playersInput.value
    .split('\n')
    .map((p) => p.trim())
    .filter(Boolean)
    .slice(0, 4);
  const chosen = rackCameraSelect.value;
  rackCameraSelect.replaceChildren(
    el('option', { value: '' }, "no player's place"),
    ...names.map((name, i) => el('option', { value: String(i) }, `${name}'s place`)),
  );
  rackCameraSelect.value = Number(chosen) < names.length ? chosen : '';
}
playersInput.addEventListener('input', showPlaces);
showPlaces();
const podiumField = document.getElementById('podium-field')!;
const podiumInput = form.elements.namedItem('podium') as HTMLInputElement;
function showVariantFields(): void {
  const me = variantSelect.value === 'scrabble-me';
  clockField.hidden = me;
  clockInput.disabled = me;
  delayField.hidden = me;
  delaySelect.disabled = me;
  rackCameraField.hidden = me;
  rackCameraSelect.disabled = me;
  podiumField.hidden = !me;
  podiumInput.disabled = !me;
}
variantSelect.addEventListener('change', showVariantFields);
showVariantFields();
const langSelect = form.elements.namedItem('lang') as HTMLSelectElement;
nameTileSetOptions(langSelect);
langSelect.value = browserTileSet();

/** A game as this page shares it: the server's list, or a game kept on this computer. */
interface Listed {
  id: string;
  players: string[];
  variant?: string;
  event?: string;
}

/** How the list names a kind of game. */
const VARIANTS: Record<string, string> = {
  classic: 'classic',
  uk: 'UK rules',
  'nine-tile': 'nine tiles',
  'finish-line': 'Finish Line',
  'scrabble-me': 'Scrabble Me',
};

/** A listed game's public links (the scorekeeper's and the cameras' need the token: see "Your games"). */
function gameLinks({ id }: Listed) {
  const box = el('p', { class: 'links' });
  const a = (href: string, text: string) => {
    const link = el('a', { href }, text);
    box.append(link, ' ');
  };
  a(`/board.html?game=${id}`, 'scoreboard');
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
  const event = String(data.get('event') ?? '').trim();
  const answer = await createGame({
    players,
    lang: data.get('lang') as GameConfigInput['lang'],
    // Scrabble Me reads each board when its player ends the turn.
    capture:
      data.get('variant') === 'scrabble-me' ? 'button' : (data.get('capture') as GameConfigInput['capture']),
    challengeRule: data.get('challengeRule') as GameConfigInput['challengeRule'],
    variant: data.get('variant') as GameConfigInput['variant'],
    ...(data.get('variant') === 'scrabble-me'
      ? { podium: String(data.get('podium')).replace(/\s+/g, '') }
      : {}),
    ...(event ? { event } : {}),
    // Empty: no game clock (a disabled field, Scrabble Me's, is not in the form's data).
    ...(String(data.get('clockMinutes') ?? '').trim() !== ''
      ? { clockMinutes: Number(data.get('clockMinutes')) }
      : {}),
    // Rounds after the move's player has moved on: a round is as many moves as there are players.
    ...(String(data.get('rackDelay') ?? '') !== ''
      ? { rackDelay: Number(data.get('rackDelay')) * players.length }
      : {}),
    // The player at whose place the camera stands (a disabled field, Scrabble Me's, is not in the form's data).
    ...(String(data.get('rackCamera') ?? '') !== '' ? { rackCamera: Number(data.get('rackCamera')) } : {}),
  } satisfies GameConfigInput);
  if (!answer.ok) {
    createError.textContent = `The game was not created: ${failure(answer, 'the server refused it')}.`;
    createError.hidden = false;
    return;
  }
  const body = answer.body;
  rememberEvent(event);
  const game: Listed = {
    id: body.id,
    players,
    variant: String(data.get('variant')),
    ...(event ? { event } : {}),
  };
  remember({
    ...game,
    created: new Date().toISOString(),
    link: `${location.origin}/board.html?game=${encodeURIComponent(body.id)}#token=${encodeURIComponent(body.token)}`,
  });
  void showShare(game, body.token, true);
  void refresh();
};

/** The share panel of a game under the form: its links with Copy and QR codes (the rack cameras' once their keys
 *  have come: none when they cannot be had). */
async function showShare(game: Listed, token: string, created: boolean): Promise<void> {
  const keys = game.variant === 'scrabble-me' ? undefined : await getRackKeys(game.id, token);
  links.replaceChildren(
    el(
      'p',
      { class: 'keep-note' },
      created
        ? 'Keep the scorekeeper link: it is the only way to change this game. This computer keeps it too, under "Your games on this computer".'
        : `${game.players.join(' v ')}: the links of this game.`,
    ),
    sharePanel(
      gameShareLinks(game, token, keys?.ok ? keys.body.keys : undefined),
      created ? 'Share the game' : `Share ${game.players.join(' v ')}`,
    ),
  );
}

/** A game created on this computer, kept in its browser so that the scorekeeper link can be found again. */
interface Kept extends Listed {
  created: string;
  /** The scorekeeper's link, with the token. */
  link: string;
}

const KEPT = 'tilecam.games';

function kept(): Kept[] {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(KEPT) ?? '[]');
    return Array.isArray(list)
      ? list.filter(
          (g): g is Kept =>
            typeof g?.id === 'string' && typeof g.link === 'string' && Array.isArray(g.players),
        )
      : [];
  } catch {
    return [];
  }
}

function keep(list: Kept[]): void {
  try {
    localStorage.setItem(KEPT, JSON.stringify(list));
  } catch {
    // Storage refused (a private window): the link on the page is all there is.
  }
  showKept();
}

function remember(game: Kept): void {
  keep([game, ...kept().filter((g) => g.id !== game.id)]);
}

function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? ''
    : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** "Your games on this computer": each with Open, Copy, Share and Forget. */
function showKept(): void {
  const games = kept();
  mine.hidden = games.length === 0;
  mineList.replaceChildren(
    ...games.map((g) => {
      const li = el('li', { class: 'kept', 'data-game': g.id });
      const head = el('div', { class: 'kept-head' });
      head.append(el('strong', {}, g.players.join(' v ')));
      const created = when(g.created);
      if (created) head.append(el('span', { class: 'kept-when' }, ` created ${created}`));
      const input = el('input', {
        class: 'share-url',
        readonly: '',
        value: g.link,
        'aria-label': `The scorekeeper link of ${g.players.join(' v ')}`,
        spellcheck: 'false',
      }) as HTMLInputElement;
      input.onfocus = () => input.select();
      const actions = el('div', { class: 'share-actions' });
      const said = el('span', { class: 'share-said', role: 'status' });
      const copy = el('button', { type: 'button', class: 'share-button share-copy' }, 'Copy');
      copy.onclick = () => void copyText(input, said);
      const share = el('button', { type: 'button', class: 'share-button kept-share' }, 'Share');
      share.onclick = () => {
        const token = new URLSearchParams(new URL(g.link).hash.slice(1)).get('token');
        if (!token) return;
        void showShare(g, token, false);
        links.scrollIntoView({ behavior: 'smooth', block: 'start' });
      };
      const forget = el(
        'button',
        {
          type: 'button',
          class: 'share-button kept-forget',
          title: 'Forget the link on this computer (the game stays)',
        },
        'Forget',
      );
      forget.onclick = () => keep(kept().filter((k) => k.id !== g.id));
      actions.append(
        el('a', { href: g.link, class: 'share-open kept-open' }, 'Open'),
        copy,
        share,
        forget,
        said,
      );
      li.append(head, input, actions);
      return li;
    }),
  );
}
showKept();

/**
 * The event of the last game started here, offered for the next one (a director starts one game after another).
 */
const EVENT = 'tilecam.event';
const eventInput = form.elements.namedItem('event') as HTMLInputElement;
function rememberEvent(event: string): void {
  try {
    if (event) localStorage.setItem(EVENT, event);
    else localStorage.removeItem(EVENT);
  } catch {
    // Storage refused: the field is typed again.
  }
}
try {
  eventInput.value = localStorage.getItem(EVENT) ?? '';
} catch {
  // Storage refused.
}

/** "Games": the current games, or with "Show archived" the archived ones; a page at a time. */
const gamesTitle = document.getElementById('games-title')!;
const showArchived = document.getElementById('show-archived') as HTMLButtonElement;
const gamesError = document.getElementById('games-error')!;
const gamesSaid = document.getElementById('games-said')!;
const more = document.getElementById('more-games') as HTMLButtonElement;
let archivedView = false;
let next: string | null = null;
/** The listing asked for last: an older answer that arrives after it is dropped. */
let listing = 0;

showArchived.onclick = () => {
  archivedView = !archivedView;
  showArchived.setAttribute('aria-pressed', String(archivedView));
  showArchived.textContent = archivedView ? 'Show current games' : 'Show archived';
  gamesTitle.textContent = archivedView ? 'Archived games' : 'Games';
  gamesSaid.textContent = '';
  void refresh();
};
more.onclick = () => void refresh(true);

/** The scorekeeper's token of a game this computer keeps. */
function keptToken(id: string): string | undefined {
  const g = kept().find((k) => k.id === id);
  if (!g) return undefined;
  try {
    return new URLSearchParams(new URL(g.link).hash.slice(1)).get('token') ?? undefined;
  } catch {
    return undefined;
  }
}

/** How the list says where a game stands. */
function standing(g: ListedGame): string {
  if (g.ended) return 'finished';
  if (g.abandoned) return 'abandoned (no move for a week)';
  return 'being played';
}

/**
 * Archives a game (or restores it, `archived` false) with the scorekeeper's token; it leaves this view of the list.
 * What went wrong is said in the game's own line.
 */
async function setArchived(
  g: ListedGame,
  token: string,
  archived: boolean,
  button: HTMLButtonElement,
  error: HTMLElement,
): Promise<void> {
  button.disabled = true;
  error.hidden = true;
  const names = g.players.join(' v ');
  const what = archived ? 'archived' : 'restored';
  const fail = (why: string) => {
    error.textContent = `${names} was not ${what}: ${why}.`;
    error.hidden = false;
    button.disabled = false;
  };
  const answer = await archiveRequest(g.id, token, archived);
  if (!answer.ok) return fail(failure(answer));
  gamesSaid.textContent = archived
    ? `${names} archived: it is under "Show archived".`
    : `${names} restored to the games.`;
  await refresh();
}

/** A game's line: players and scores, kind, status, date, event and hall, links, and Archive or Restore. */
function gameItem(g: ListedGame): HTMLElement {
  const li = el('li', { class: 'listed', 'data-game': g.id });
  const status = g.archived ? `archived, ${standing(g)}` : standing(g);
  const meta = [VARIANTS[g.variant] ?? g.variant, status, when(g.createdAt)].filter(Boolean);
  const state = g.ended ? 'ended' : g.abandoned ? 'abandoned' : 'live';
  li.dataset.status = state;
  li.append(
    el('strong', { class: 'listed-scores' }, playersWithScores(g)),
    ' ',
    el('span', { class: `game-meta ${state}` }, meta.join(' · ')),
  );
  const links = gameLinks(g);
  if (g.event) {
    links.prepend(
      el('span', { class: 'listed-event' }, `${g.event}:`),
      ' ',
      el('a', { href: hallHref(g.event), class: 'hall-open' }, 'the hall'),
      ' ',
    );
  }
  li.append(links);
  const token = keptToken(g.id);
  const error = el('p', { class: 'listed-error', role: 'alert' });
  error.hidden = true;
  if (token && (g.archived || g.ended || g.abandoned)) {
    const archive = !g.archived;
    const button = el(
      'button',
      {
        type: 'button',
        class: archive ? 'archive' : 'restore',
        'aria-label': `${archive ? 'Archive' : 'Restore'} ${g.players.join(' v ')}`,
      },
      archive ? 'Archive' : 'Restore',
    ) as HTMLButtonElement;
    button.onclick = () => void setArchived(g, token, archive, button, error);
    links.append(button);
  }
  li.append(error);
  return li;
}

/** Lists the games again from the first page (or, with `more`, the next page below those shown). */
async function refresh(append = false) {
  const ask = ++listing;
  try {
    const page = await listGames({
      ...(archivedView ? { status: 'archived' as const } : {}),
      ...(append && next ? { after: next } : {}),
    });
    if (ask !== listing) return;
    gamesError.hidden = true;
    next = page.next;
    more.hidden = next === null;
    const items = page.games.map(gameItem);
    if (append) list.append(...items);
    else list.replaceChildren(...items);
    if (!append && page.games.length === 0)
      list.replaceChildren(
        el('li', { class: 'listed-none' }, archivedView ? 'No archived games.' : 'No games yet.'),
      );
  } catch (err) {
    if (ask !== listing) return;
    gamesError.textContent = `The games could not be listed: ${(err as Error).message}.`;
    gamesError.hidden = false;
  }
}
void refresh();
