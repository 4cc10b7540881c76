/**
 * A game's broadcast fields over HTTP, for stream overlays and OBS text sources: each field as plain text
 * (`/api/games/ID/fields/score.txt`), all of them as JSON (`/api/games/ID/fields`), and a server-sent-events stream
 * that sends them on connect and whenever they change (`/api/games/ID/events`, event `fields`): after every change
 * of the game, and every second while a turn's clock runs (its `clock` field counts up). No token: they show what
 * the scoreboard shows.
 */
import express from 'express';
import type { Snapshot } from '../protocol/index.ts';
import { type FieldName, fieldNames, fieldsOf, type GameService, ServiceError } from '../service/index.ts';

/** A comment line every this often keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;
/** The running clock's fields are made again this often between changes of the game (from the last snapshot: the
 *  game is not looked at again); sent when their text changed, about once a second. */
const TICK_MS = 250;

export function fieldRoutes(service: GameService): express.Router {
  const router = express.Router();
  router.get('/api/games/:id/fields', async (req, res) => {
    res.set('Cache-Control', 'no-store').json(fieldsOf((await service.get(req.params.id!)).snapshot()));
  });
  router.get('/api/games/:id/fields/:file', async (req, res) => {
    const m = /^([a-z]+)\.txt$/.exec(req.params.file!);
    const name = m?.[1] as FieldName | undefined;
    if (!name || !fieldNames.includes(name))
      throw new ServiceError(
        'not-found',
        `no field '${req.params.file}': one of ${fieldNames.map((f) => `${f}.txt`).join(', ')}`,
      );
    const fields = fieldsOf((await service.get(req.params.id!)).snapshot());
    res.type('text/plain; charset=utf-8').set('Cache-Control', 'no-store').send(`${fields[name]}\n`);
  });
  router.get('/api/games/:id/events', async (req, res) => {
    const session = await service.get(req.params.id!);
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    let stop = () => {};
    /** The fields last sent: the same again is not sent. */
    let sent = '';
    let last: Snapshot | undefined;
    const send = (snapshot: Snapshot) => {
      last = snapshot;
      // A listener that does not read is let go rather than buffered for without end.
      if (res.writableLength > service.limits.viewerBufferBytes) {
        stop();
        res.end();
        return;
      }
      const data = JSON.stringify(fieldsOf(snapshot));
      if (data === sent) return;
      sent = data;
      res.write(`id: ${snapshot.version}\nevent: fields\ndata: ${data}\n\n`);
    };
    send(session.snapshot());
    const unsubscribe = session.subscribe(send);
    const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
    keepalive.unref();
    // The running turn's clock counts up with no change of the game: sent as it does (a classic game's, until it
    // ends; Scrabble Me has no turn clock).
    const tick = setInterval(() => {
      if (last && last.variant !== 'scrabble-me' && !last.ended && last.clock.running) send(last);
    }, TICK_MS);
    tick.unref();
    stop = () => {
      unsubscribe();
      clearInterval(keepalive);
      clearInterval(tick);
    };
    res.on('close', stop);
    res.on('error', stop);
  });
  return router;
}
