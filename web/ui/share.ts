/**
 * The "Share" panel of the start page and the scorekeeper's page: each link of a game (scoreboard, overlay, a camera
 * per seat or over the board, a rack camera per player, the scorekeeper's own) with a Copy button and a QR code, at an address a phone on the same network
 * reaches (the server's LAN addresses from `/api/health`), so a phone at the table opens its camera page in one scan.
 */
import QRCode from 'qrcode';
import { getHealth } from '../api.ts';
import { overlayPath } from './overlay-options.ts';
import { el } from './render.ts';

export interface ShareLink {
  /** What the link opens, e.g. "Scoreboard (for a TV)". */
  label: string;
  /** The link from the server's root: `/board.html?game=…`. */
  path: string;
  /** A name for the link (`data-link`), e.g. `camera-1`. */
  name: string;
  /** The link carries the scorekeeper's token: whoever holds it can change the game. */
  keyed?: boolean;
  /** A page that goes with the link, opened on this computer (the overlay's builder). */
  more?: { label: string; path: string };
}

/** How the QR codes are drawn (the tests draw the same). */
export const QR_OPTIONS = { type: 'svg', margin: 1, errorCorrectionLevel: 'M' } as const;

export const KEY_NOTE = "with the scorekeeper's key — only for the table";

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Where phones reach this server: the addresses to offer, first the default, and why a phone may not. */
export interface Reach {
  bases: string[];
  note?: string;
}

let reachOnce: Promise<Reach> | undefined;

/**
 * The addresses for the links: the page's own when it was opened over the network already; the server's LAN
 * addresses when it was opened on the host machine (localhost); else this address, with a note.
 */
export function reach(): Promise<Reach> {
  reachOnce ??= (async () => {
    if (!LOOPBACK.test(location.hostname)) return { bases: [location.origin] };
    const answer = await getHealth();
    const health = answer.ok ? answer.body : {};
    const lan = Array.isArray(health.lan)
      ? health.lan.filter((a): a is string => typeof a === 'string' && /^https?:\/\//.test(a))
      : [];
    if (lan.length > 0) return { bases: lan };
    return {
      bases: [location.origin],
      note: 'Phones cannot reach this address; start tilecam with --host 0.0.0.0',
    };
  })();
  return reachOnce;
}

/** Copies `input`'s text: to the clipboard where the page may write it, else selected for the person to copy. */
export async function copyText(input: HTMLInputElement, said: HTMLElement): Promise<void> {
  try {
    if (window.isSecureContext && navigator.clipboard) {
      await navigator.clipboard.writeText(input.value);
      said.textContent = 'Copied';
      return;
    }
  } catch {
    // Refused (no permission, page not focused): select it instead.
  }
  input.focus();
  input.select();
  said.textContent = 'Selected: copy it with Ctrl+C (⌘C), or long-press';
}

function card(link: ShareLink): { item: HTMLElement; set: (base: string) => void } {
  const item = el('li', { class: 'share-link', 'data-link': link.name });
  const text = el('div', { class: 'share-text' });
  const title = el('strong', { class: 'share-label' }, link.label);
  const input = el('input', {
    class: 'share-url',
    readonly: '',
    'aria-label': `The link: ${link.label}`,
    spellcheck: 'false',
  }) as HTMLInputElement;
  const actions = el('div', { class: 'share-actions' });
  const button = el('button', { type: 'button', class: 'share-button share-copy' }, 'Copy');
  const open = el('a', { class: 'share-open', target: '_blank', rel: 'noopener' }, 'Open');
  const said = el('span', { class: 'share-said', role: 'status' });
  button.onclick = () => void copyText(input, said);
  input.onfocus = () => input.select();
  actions.append(button, open);
  if (link.more) actions.append(el('a', { class: 'share-more', href: link.more.path }, link.more.label));
  actions.append(said);
  text.append(title);
  if (link.keyed) text.append(el('span', { class: 'share-key' }, KEY_NOTE));
  text.append(input, actions);
  const qr = el('div', {
    class: 'share-qr',
    role: 'img',
    'aria-label': `QR code of the link: ${link.label}`,
  });
  item.append(text, qr);
  let drawn = '';
  const set = (base: string) => {
    const url = `${base}${link.path}`;
    input.value = url;
    open.setAttribute('href', url);
    said.textContent = '';
    if (url === drawn) return;
    drawn = url;
    qr.dataset.url = url;
    void QRCode.toString(url, QR_OPTIONS).then((svg) => {
      // The code of the address shown now, not of one picked before it.
      if (drawn !== url) return;
      qr.innerHTML = svg;
      qr.dataset.drawn = url;
    });
  };
  return { item, set };
}

/**
 * The panel: the links at the first address a phone reaches (a select when there are several), each with Copy
 * and its QR code. With `heading` empty, no heading: the page names the panel itself.
 */
export function sharePanel(links: readonly ShareLink[], heading = 'Share'): HTMLElement {
  const panel = el('section', { class: 'share-panel' });
  const head = el('div', { class: 'share-head' });
  if (heading) head.append(el('h3', {}, heading));
  const picker = el('label', { class: 'share-address' }, 'Address ');
  const select = el('select', { name: 'share-address' }) as HTMLSelectElement;
  picker.append(select);
  picker.hidden = true;
  head.append(picker);
  const note = el('p', { class: 'share-note' });
  note.hidden = true;
  const list = el('ul', { class: 'share-links' });
  const cards = links.map(card);
  list.append(...cards.map((c) => c.item));
  panel.append(head, note, list);
  const show = (base: string) => {
    for (const c of cards) c.set(base);
  };
  show(location.origin);
  void reach().then(({ bases, note: why }) => {
    select.replaceChildren(...bases.map((b) => el('option', { value: b }, b.replace(/^https?:\/\//, ''))));
    picker.hidden = bases.length < 2;
    select.onchange = () => show(select.value);
    if (why) {
      note.textContent = why;
      note.hidden = false;
    }
    show(bases[0] ?? location.origin);
    panel.dataset.ready = 'true';
  });
  return panel;
}

/**
 * A game's links, as the pages have them (the scorekeeper's and the board cameras' only with the token). With
 * `rackKeys` (each player's, from the server), a rack camera link per player: its key lets that phone send that
 * player's rack frames and nothing else, so a player holding it sees no one's rack.
 */
export function gameShareLinks(
  game: { id: string; players: readonly string[]; variant?: string },
  token: string,
  rackKeys?: readonly string[],
): ShareLink[] {
  const id = encodeURIComponent(game.id);
  const key = encodeURIComponent(token);
  const links: ShareLink[] = [
    { label: 'Scoreboard (for a TV or the players)', path: `/board.html?game=${id}`, name: 'scoreboard' },
    {
      label: 'OBS overlay (for a stream)',
      path: overlayPath({ game: game.id, fields: ['scores', 'last'] }),
      name: 'overlay',
      more: { label: 'Build an overlay…', path: `/overlay-builder?game=${id}` },
    },
  ];
  // Scrabble Me: a camera at every seat; otherwise one camera over the board.
  if (game.variant === 'scrabble-me')
    for (const [i, p] of game.players.entries())
      links.push({
        label: `${p}'s camera (seat ${i + 1})`,
        path: `/camera.html?game=${id}&seat=${i + 1}#token=${key}`,
        name: `camera-${i + 1}`,
        keyed: true,
      });
  else {
    links.push({
      label: 'Camera',
      path: `/camera.html?game=${id}#token=${key}`,
      name: 'camera',
      keyed: true,
    });
    // A phone at a player's place, looking across the board with their rack in front: the racks for the best plays
    // and the stream (seven-tile racks only).
    if (game.variant !== 'nine-tile' && rackKeys?.length === game.players.length)
      for (const [i, p] of game.players.entries())
        links.push({
          label: `${p}'s rack camera (a phone at their place)`,
          path: `/camera.html?game=${id}&rack=${i + 1}#token=${encodeURIComponent(rackKeys[i]!)}`,
          name: `rack-${i + 1}`,
          keyed: true,
        });
  }
  links.push({
    label: 'Scorekeeper',
    path: `/board.html?game=${id}#token=${key}`,
    name: 'scorekeeper',
    keyed: true,
  });
  return links;
}
