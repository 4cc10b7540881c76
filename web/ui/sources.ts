/**
 * The camera streams the server pulls, on the scorekeeper's page. The snapshot tells every viewer only that a
 * stream stopped; why (a name not found, a refused connection) is asked with the token (`GET …/source`), once a stop.
 */
import type { Snapshot, SourceView } from '../../server/protocol/index.ts';
import { getSources } from '../api.ts';
import { el } from './render.ts';

/** Why each stream shown stopped, by seat and host: '' while asked, or when the server did not say. */
const reasons = new Map<string, string>();
const keyOf = (src: SourceView) => `${src.camera} ${src.host}`;

async function ask(game: string, token: string): Promise<readonly SourceView[]> {
  const answer = await getSources(game, token);
  return answer.ok ? answer.body.sources : [];
}

/** The streams of the game `s`, and why one stopped (asked of the server, then `redraw` is called). */
export function sourcesView(s: Snapshot, game: string, token: string, redraw: () => void): HTMLElement[] {
  const stopped = new Set(s.sources.filter((src) => src.state === 'stopped').map(keyOf));
  // A stream pulled again forgets why it stopped before: the next stop is asked anew.
  for (const key of reasons.keys()) if (!stopped.has(key)) reasons.delete(key);
  const unknown = [...stopped].filter((key) => !reasons.has(key));
  if (unknown.length > 0) {
    for (const key of unknown) reasons.set(key, '');
    void ask(game, token).then((detail) => {
      for (const src of detail)
        if (src.state === 'stopped' && src.error && reasons.get(keyOf(src)) === '')
          reasons.set(keyOf(src), src.error);
      redraw();
    });
  }
  return s.sources.map((src) => {
    const reason = reasons.get(keyOf(src));
    return el(
      'p',
      { class: src.state === 'pulling' ? 'source' : 'source stopped' },
      src.state === 'pulling'
        ? `Camera stream from ${src.host}${s.variant === 'scrabble-me' ? ` (seat ${src.camera + 1})` : ''}: pulling`
        : `Camera stream from ${src.host} stopped${reason ? `: ${reason}` : ''}`,
    );
  });
}
