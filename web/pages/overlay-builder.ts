/**
 * The overlay builder (`/overlay-builder?game=ID`): a game from the list, the fields, layout, background and size
 * as form controls, the overlay's address to copy, and a live preview: the overlay itself in a frame of the source's
 * size (1920×1080 or 1280×720), scaled down to the page. The address is written by overlay-options.ts, the one
 * place that also reads it.
 */
import type { GameList } from '../../server/protocol/index.ts';
import { listGames } from '../api.ts';
import {
  type OverlayField,
  type OverlayLayout,
  type OverlaySize,
  overlayFields,
  overlayPath,
} from '../ui/overlay-options.ts';
import { copyText } from '../ui/share.ts';

const form = document.getElementById('builder') as HTMLFormElement;
const gameSelect = document.getElementById('game') as HTMLSelectElement;
const gamesNote = document.getElementById('games-note')!;
const url = document.getElementById('overlay-url') as HTMLInputElement;
const open = document.getElementById('open') as HTMLAnchorElement;
const copied = document.getElementById('copied')!;
const box = document.getElementById('preview-box')!;
const frame = document.getElementById('preview') as HTMLIFrameElement;
const wanted = new URLSearchParams(location.search).get('game') ?? '';

/** The game list's line for a game: its players, its kind and when it started. */
function describe(g: GameList['games'][number]): string {
  const when = new Date(g.createdAt);
  const date = Number.isNaN(when.getTime()) ? '' : ` · ${when.toLocaleString()}`;
  const kind = g.variant === 'classic' ? '' : ` · ${g.variant}`;
  return `${g.players.join(' vs ')}${kind}${date}${g.ended ? ' · ended' : ''}`;
}

async function loadGames(): Promise<void> {
  // None when the server does not answer: shown below as no game to pick.
  const answer = await listGames();
  const games = answer.ok ? answer.body.games : [];
  const options = games.map((g) => new Option(describe(g), g.id, false, g.id === wanted));
  // A game named in the address but not on the list's first page (an older one) is still offered.
  if (wanted && !games.some((g) => g.id === wanted))
    options.unshift(new Option(`game ${wanted}`, wanted, true, true));
  gameSelect.replaceChildren(...options);
  gamesNote.hidden = options.length > 0;
  gamesNote.textContent = 'No game yet: start one on the start page, then come back.';
  if (options.length === 0) gameSelect.append(new Option('no game yet', ''));
  update();
}

/** The form's choices. */
function chosen() {
  const data = new FormData(form);
  const fields = data.getAll('field').map(String) as OverlayField[];
  const bg = String(data.get('bg') ?? '');
  return {
    game: gameSelect.value,
    fields: overlayFields.filter((f) => fields.includes(f)),
    layout: String(data.get('layout') ?? 'column') as OverlayLayout,
    bg: bg === 'colour' ? String(data.get('bg-colour') ?? '') : bg,
    size: String(data.get('size') ?? 'm') as OverlaySize,
    source: String(data.get('source') ?? '1920x1080'),
  };
}

/** Scales the preview's frame (the source's own size) down to the width of its box. */
function scalePreview(): void {
  const [w, h] = chosen().source.split('x').map(Number) as [number, number];
  frame.width = String(w);
  frame.height = String(h);
  box.style.aspectRatio = `${w} / ${h}`;
  frame.style.transform = `scale(${box.clientWidth / w})`;
}

let shown = '';
let timer: ReturnType<typeof setTimeout> | undefined;
function update(): void {
  const c = chosen();
  const address = `${location.origin}${overlayPath(c)}`;
  url.value = c.game ? address : '';
  open.href = address;
  open.hidden = !c.game;
  copied.textContent = '';
  scalePreview();
  // The preview follows the form, once the clicks have settled.
  clearTimeout(timer);
  timer = setTimeout(() => {
    const src = c.game ? address : 'about:blank';
    if (src !== shown) frame.src = shown = src;
  }, 200);
}

form.addEventListener('input', (e) => {
  // Picking a card colour means cards of that colour.
  if ((e.target as HTMLInputElement).name === 'bg-colour')
    (form.querySelector('input[name=bg][value=colour]') as HTMLInputElement).checked = true;
  update();
});
form.addEventListener('submit', (e) => e.preventDefault());
gameSelect.addEventListener('change', update);
document.getElementById('copy')!.onclick = () => void copyText(url, copied);
new ResizeObserver(scalePreview).observe(box);
void loadGames();
