/**
 * The OBS overlay's settings, read from its URL and written back to one: the overlay page reads them, the overlay
 * builder writes them. Every value is checked here and a bad one is ignored (its default kept); nothing from the
 * URL is ever put into the page as HTML. Pure: no DOM.
 */

/** The panels the overlay can show, in the order the builder offers them. */
export const overlayFields = [
  'scores',
  'names',
  'last',
  'board',
  'tracker',
  'unseen',
  'clock',
  'best',
] as const;
export type OverlayField = (typeof overlayFields)[number];

export const overlayLayouts = ['column', 'row'] as const;
export type OverlayLayout = (typeof overlayLayouts)[number];

/** The sizes, as a factor of the overlay's unit (1% of the source's height, for a 16:9 source). */
export const overlaySizes = { s: 0.8, m: 1, l: 1.25 } as const;
export type OverlaySize = keyof typeof overlaySizes;

export interface OverlayOptions {
  /** The game's id; '' when absent or malformed (the overlay then shows only its placeholder). */
  game: string;
  /** The panels, in the order given; default `scores,last`. `names` is the scores without the totals. */
  fields: OverlayField[];
  /** Panels stacked (`column`, the default) or side by side (`row`). */
  layout: OverlayLayout;
  /** '' transparent (the default), `panel` a translucent dark card under each panel, or a colour for the cards. */
  bg: string;
  /** `s`, `m` (default) or `l`. */
  size: OverlaySize;
  /** The text's colour ('' the default, white). */
  colour: string;
  /** The font family ('' the default). */
  font: string;
}

export const defaultOverlay: OverlayOptions = {
  game: '',
  fields: ['scores', 'last'],
  layout: 'column',
  bg: '',
  size: 'm',
  colour: '',
  font: '',
};

const GAME = /^[\w-]{1,64}$/;
/** A colour as CSS writes it: #rgb, #rgba, #rrggbb, #rrggbbaa, a name, or rgb()/rgba() with plain numbers. */
const COLOUR =
  /^(#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})|[a-z]{3,24}|rgba?\(\s*\d{1,3}%?(?:\s*[,\s]\s*\d{1,3}%?){2}(?:\s*[,/]\s*(?:0|1|0?\.\d{1,3}|\d{1,3}%))?\s*\))$/i;
const FONT = /^[\w\s,.'-]{1,40}$/;
const SIZE_NAMES: ReadonlyMap<string, OverlaySize> = new Map([
  ['s', 's'],
  ['small', 's'],
  ['m', 'm'],
  ['medium', 'm'],
  ['l', 'l'],
  ['large', 'l'],
]);

/** Whether a value may be used as a colour (the page may also ask the browser, `CSS.supports`). */
export function isColour(value: string): boolean {
  return COLOUR.test(value);
}

/** The overlay's settings from its query string; every bad value ignored. */
export function parseOverlay(query: URLSearchParams): OverlayOptions {
  const o: OverlayOptions = { ...defaultOverlay, fields: [...defaultOverlay.fields] };
  const game = query.get('game') ?? '';
  if (GAME.test(game)) o.game = game;
  const wanted = (query.get('fields') ?? '')
    .split(',')
    .map((f) => f.trim().toLowerCase())
    .filter((f): f is OverlayField => (overlayFields as readonly string[]).includes(f));
  if (wanted.length > 0) o.fields = [...new Set(wanted)];
  const layout = query.get('layout') ?? '';
  if ((overlayLayouts as readonly string[]).includes(layout)) o.layout = layout as OverlayLayout;
  const bg = (query.get('bg') ?? '').trim();
  if (bg === 'panel' || (bg !== 'transparent' && isColour(bg))) o.bg = bg;
  const size = SIZE_NAMES.get((query.get('size') ?? '').trim().toLowerCase());
  if (size) o.size = size;
  const colour = (query.get('colour') ?? query.get('color') ?? '').trim();
  if (isColour(colour)) o.colour = colour;
  const font = (query.get('font') ?? '').trim();
  if (FONT.test(font)) o.font = font;
  return o;
}

/** The overlay's address from the server's root (`/overlay.html?game=…&fields=…`): only what differs from the defaults. */
export function overlayPath(o: Partial<OverlayOptions> & { game: string }): string {
  const parts = [`game=${encodeURIComponent(o.game)}`];
  const fields = o.fields?.length ? o.fields : defaultOverlay.fields;
  // Commas are kept as they are: the address stays readable in OBS's box.
  parts.push(`fields=${fields.map(encodeURIComponent).join(',')}`);
  if (o.layout && o.layout !== defaultOverlay.layout) parts.push(`layout=${o.layout}`);
  if (o.bg) parts.push(`bg=${encodeURIComponent(o.bg)}`);
  if (o.size && o.size !== defaultOverlay.size) parts.push(`size=${o.size}`);
  if (o.colour) parts.push(`colour=${encodeURIComponent(o.colour)}`);
  if (o.font) parts.push(`font=${encodeURIComponent(o.font)}`);
  return `/overlay.html?${parts.join('&')}`;
}
