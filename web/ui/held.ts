/**
 * A reading held for the scorekeeper, as one panel (a classic game's, or one per held board of a Scrabble Me game):
 * the reasons as an alert, each square in doubt zoomed from the photo with its likeliest readings as buttons, what
 * the move would score if confirmed as it stands, "Confirm this board", and the reading itself (a square fixed by a
 * click). And the alert when a new one arrives: the panel pulses once (not with prefers-reduced-motion) and a short
 * chime sounds (WebAudio, no file), once the person has used the page (browsers allow sound only then), unless
 * muted (the header's toggle, remembered in localStorage).
 */
import type { PendingView } from '../../server/protocol/index.ts';
import { boardView, el, heldSquaresView, onSquareClick } from './render.ts';

/** What the scorekeeper's buttons in the panel do; none on a viewer's page. */
export interface HeldActions {
  /** A reading of a square in doubt picked. */
  pick(row: number, col: number, tile: string): void;
  /** Asks what is on a square (`name`: `8H`) and fixes it: "other letter…", or a click on the reading's board. */
  ask(row: number, col: number, name: string): void;
  /** Confirms the reading as it stands. */
  confirm(): void;
  /** Lets the reading go: it was no move of the game (a classic game's only). */
  dismiss?(): void;
}

/** What the reading would score if confirmed: `If confirmed: JOEY H5 — 14 points`, and each word's sentence. */
function previewView(preview: NonNullable<PendingView['preview']>): HTMLElement {
  const box = el('div', { class: 'held-preview' });
  const main = preview.words[0]?.split(':')[0]?.trim() ?? '';
  const line = el('p', { class: 'preview-line' }, 'If confirmed: ');
  line.append(
    el('strong', { class: 'preview-move' }, `${main ? `${main} ` : ''}${preview.position}`),
    ` — ${preview.points} point${preview.points === 1 ? '' : 's'}`,
  );
  box.append(line);
  // The sum when there is more than one part to it (cross-words, a bingo).
  if (preview.sentence !== String(preview.points))
    box.append(el('p', { class: 'preview-sum' }, `${preview.sentence}`));
  const words = el('ul', { class: 'preview-words' });
  for (const w of preview.words) words.append(el('li', {}, w));
  box.append(words);
  return box;
}

/**
 * The panel of a held reading. `key` names it in the page (`held-title`, `held-title-2`…: its heading's id); `title`
 * is its heading; `actions` are the scorekeeper's (none: a viewer's page, the panel only tells).
 */
export function heldPanel(
  p: PendingView,
  options: { key: string; title: string; actions?: HeldActions | undefined; board?: number },
): HTMLElement {
  const { actions } = options;
  const id = `held-title${options.key ? `-${options.key}` : ''}`;
  const box = el('section', { class: 'pending held', 'aria-labelledby': id });
  if (options.board !== undefined) box.dataset.board = String(options.board);
  box.append(
    el('h2', { id }, options.title),
    el('p', { class: 'reasons', role: 'alert' }, `Held: ${p.reasons.join('; ')}.`),
  );
  if (p.waiting > 0)
    box.append(
      el(
        'p',
        { class: 'held-waiting' },
        `${p.waiting === 1 ? '1 more turn waits' : `${p.waiting} more turns wait`} behind this one: decided in order once it is settled.`,
      ),
    );
  const count = p.squares.length;
  if (count > 0) {
    box.append(
      el(
        'p',
        { class: 'held-hint' },
        actions
          ? count === 1
            ? 'The camera is unsure of one square: pick what is on it.'
            : `The camera is unsure of ${count} squares: pick what is on each.`
          : `The camera is unsure of ${count === 1 ? 'one square' : `${count} squares`}: the scorekeeper says what is on ${count === 1 ? 'it' : 'each'}.`,
      ),
      heldSquaresView(p, actions?.pick, actions?.ask),
    );
  }
  if (p.preview) box.append(previewView(p.preview));
  if (actions) {
    const ok = el(
      'button',
      {
        type: 'button',
        'data-action': options.board === undefined ? 'confirm' : `confirm-${options.board}`,
        class: 'held-confirm',
      },
      'Confirm this board',
    );
    ok.onclick = () => actions.confirm();
    box.append(ok);
    const { dismiss } = actions;
    if (dismiss) {
      const no = el(
        'button',
        { type: 'button', 'data-action': 'dismiss', class: 'held-dismiss' },
        'Not a move: let it go',
      );
      no.onclick = () => dismiss();
      box.append(no);
    }
  }
  const board = boardView(p.board, { doubt: p.squares });
  if (actions) onSquareClick(board, (row, col, sq) => actions.ask(row, col, sq.dataset.square ?? ''));
  const reading = el('div', { class: 'held-reading' });
  reading.append(board, el('img', { src: p.photo, alt: 'the photo behind this reading', class: 'photo' }));
  box.append(reading);
  return box;
}

/** What names a held reading across snapshots: its photo (a new frame held is a new photo), or its board. */
export function heldKey(board: number, p: PendingView): string {
  return `${board}:${p.photo || p.board.join('/')}`;
}

const MUTE = 'tilecam.mute';

/** Whether the alert's sound is muted: remembered on this computer (for this page only, where storage is refused). */
let mutedNow = (() => {
  try {
    return localStorage.getItem(MUTE) === '1';
  } catch {
    return false;
  }
})();
const muted = () => mutedNow;

function setMuted(value: boolean): void {
  mutedNow = value;
  try {
    if (value) localStorage.setItem(MUTE, '1');
    else localStorage.removeItem(MUTE);
  } catch {
    // Storage refused (a private window): muted for this page only.
  }
}

/** Whether the person has used the page (a click, a key): browsers let a page make a sound only after that. */
let used = false;
let audio: AudioContext | undefined;
function woken(): void {
  used = true;
  // Made (or resumed) in the person's gesture, the audio is allowed to play later.
  if (muted()) return;
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') void audio.resume();
  } catch {
    // No WebAudio here: the alert is the panel and the title.
  }
}
for (const type of ['pointerdown', 'keydown'] as const) addEventListener(type, woken, { capture: true });

/** A short two-note chime, made with WebAudio (no sound file); nothing before the page is used, or when muted. */
export function chime(): boolean {
  if (!used || muted()) return false;
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') void audio.resume();
    const t = audio.currentTime + 0.01;
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = 'sine';
    osc.frequency.setValueAtTime(880, t);
    osc.frequency.setValueAtTime(1318.5, t + 0.13);
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.2, t + 0.02);
    gain.gain.setValueAtTime(0.2, t + 0.24);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.4);
    osc.connect(gain).connect(audio.destination);
    osc.start(t);
    osc.stop(t + 0.42);
    return true;
  } catch {
    return false;
  }
}

/** The held readings of the last snapshot shown; undefined before the first (what is held then is not news). */
let known: Set<string> | undefined;

/**
 * The held readings of this snapshot (their `heldKey`s) that were not held in the last one: the page pulses their
 * panels, and chimes once for them.
 */
export function newlyHeld(keys: readonly string[]): Set<string> {
  const fresh = new Set(known ? keys.filter((k) => !known!.has(k)) : []);
  known = new Set(keys);
  if (fresh.size > 0) chime();
  return fresh;
}

/** A speaker, with its sound waves when `on`, struck through when not (drawn: this machine may have no emoji). */
function speaker(on: boolean): SVGSVGElement {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', 'sound-icon');
  svg.setAttribute('aria-hidden', 'true');
  const path = (d: string, fill: boolean) => {
    const p = document.createElementNS(NS, 'path');
    p.setAttribute('d', d);
    p.setAttribute('fill', fill ? 'currentColor' : 'none');
    p.setAttribute('stroke', 'currentColor');
    p.setAttribute('stroke-width', '2');
    p.setAttribute('stroke-linecap', 'round');
    p.setAttribute('stroke-linejoin', 'round');
    svg.append(p);
  };
  path('M3 9h4l5-4v14l-5-4H3z', true);
  if (on) path('M15.5 8.5a5 5 0 0 1 0 7M18.5 5.5a9 9 0 0 1 0 13', false);
  else path('M16 9l6 6M22 9l-6 6', false);
  return svg;
}

/** The header's toggle of the alert's sound, remembered on this computer. */
export function soundToggle(): HTMLButtonElement {
  const button = el('button', { type: 'button', class: 'sound-toggle', id: 'sound-toggle' });
  const show = () => {
    const on = !muted();
    button.setAttribute('aria-pressed', String(on));
    button.title = on
      ? 'A chime sounds when a reading is held for you: press to mute it'
      : 'Muted: press for a chime when a reading is held for you';
    button.replaceChildren(speaker(on), ' Alert sound');
  };
  button.onclick = () => {
    setMuted(!muted());
    show();
    if (!muted()) woken();
  };
  show();
  return button;
}
