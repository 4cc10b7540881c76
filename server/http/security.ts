/**
 * What browsers are told with every answer (helmet), and which files of web/ are served at all. The pages load only
 * their own bundle (/app/NAME.js), the style sheet and pictures (camera thumbnails as data: URLs, chosen photos as
 * blob: URLs), and open the WebSocket to this host: the Content-Security-Policy allows that and nothing else. No
 * page may be framed (the start page lists this browser's scorekeeper links) but the overlay, which an OBS browser
 * source, or any page, embeds, and which alone takes inline styles (OBS's Custom CSS). A WebSocket opened by another
 * site's page is refused.
 */
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

type Directives = Record<string, string[]>;

const pageDirectives: Directives = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  // Elements' style is set through the CSSOM only (never a style attribute or element): no 'unsafe-inline'.
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'media-src': ["'self'", 'blob:'],
  // 'self' covers ws: and wss: to this host (CSP 3).
  'connect-src': ["'self'"],
  'font-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
};

/** The overlay: framed anywhere, and restyled by OBS's "Custom CSS" (which OBS adds as a style element). */
const overlayDirectives: Directives = { ...pageDirectives, 'style-src': ["'self'", "'unsafe-inline'"] };

function options(frameable: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: frameable ? overlayDirectives : { ...pageDirectives, 'frame-ancestors': ["'none'"] },
    },
    xFrameOptions: frameable ? false : { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    // The server cannot tell whether it is reached over TLS: the proxy that terminates TLS sets HSTS.
    strictTransportSecurity: false,
    // Photos and score-check cards may be shown on other sites (a club's page, a chat's preview).
    crossOriginResourcePolicy: false,
  };
}

const framed = helmet(options(true));
const unframed = helmet(options(false));
/** The overlay page, with or without its extension. */
const OVERLAY = /^\/overlay(?:\.html)?$/;

/** Sets the security headers of every answer: the overlay may be framed by anyone, nothing else by anybody. */
export function securityHeaders(): RequestHandler {
  return (req, res, next) => (OVERLAY.test(req.path) ? framed : unframed)(req, res, next);
}

/** The files of web/ a page needs, by the path asked (not decoded): a page (with or without `.html`), the style
 *  sheet and icons at the top. The TypeScript sources, tests and the README's screenshots are not served. */
const SERVED = /^\/(?:[\w-]+(?:\.(?:html|css|svg|png|jpe?g|webp|ico))?)?$/;

export function servedFromWeb(path: string): boolean {
  return SERVED.test(path);
}

/** Whether the proxy that sent a request may be believed (express's compiled `trust proxy`, as `req.host` reads it). */
export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * Whether a request comes from no page of another site: without an Origin (OBS, command-line tools) or with the
 * origin of the host it was sent to (its Host header, or X-Forwarded-Host from a proxy `trust` believes). A browser
 * always sends Origin with a WebSocket, so another site's page cannot use a viewer's browser to reach the server.
 */
export function sameOrigin(req: IncomingMessage, trust: TrustProxy): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  const forwarded = [req.headers['x-forwarded-host'] ?? []].flat()[0];
  const host =
    forwarded && trust(req.socket.remoteAddress ?? '', 0)
      ? forwarded.split(',')[0]!.trim()
      : req.headers.host;
  if (!host) return false;
  try {
    const from = new URL(origin);
    if (from.protocol !== 'http:' && from.protocol !== 'https:') return false;
    // Read with the origin's scheme, so that a default port written out (`:80`, `:443`) compares equal.
    const to = new URL(`${from.protocol}//${host}`);
    return to.host === from.host && to.pathname === '/' && to.username === '' && to.password === '';
  } catch {
    return false;
  }
}
