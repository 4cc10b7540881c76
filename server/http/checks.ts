/**
 * The routes of score checks (server/service/checks/checks.ts): two photos (or one and the announced move) as a
 * multipart form, a stored check and its photos and card, a live game's move explained, a GCG record rescored.
 * Multipart is parsed by multer, in memory, with every part bounded.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import multer from 'multer';
import { MAX_BYTES } from '../../vision/index.ts';
import { type CheckService, ServiceError, type Upload } from '../service/index.ts';

const upload = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: MAX_BYTES, files: 2, fields: 8, fieldSize: 1024, parts: 10, headerPairs: 100 },
}).fields([
  { name: 'before', maxCount: 1 },
  { name: 'after', maxCount: 1 },
]);

/** multer's limits and refusals as the service's errors. */
function parseForm(req: Request, res: Response, next: NextFunction): void {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
  if (type !== 'multipart/form-data') {
    next(
      new ServiceError('unsupported-media', 'send the photos as multipart/form-data (fields before, after)'),
    );
    return;
  }
  upload(req, res, (err: unknown) => {
    if (!err) {
      next();
      return;
    }
    if (err instanceof multer.MulterError) {
      const tooLarge = err.code === 'LIMIT_FILE_SIZE' || err.code === 'LIMIT_FIELD_VALUE';
      const what =
        err.code === 'LIMIT_UNEXPECTED_FILE'
          ? `unexpected file field '${err.field}': send before and after`
          : err.code === 'LIMIT_FILE_SIZE'
            ? `a photo is over ${MAX_BYTES / 1024 / 1024} MB`
            : err.message.toLowerCase();
      next(new ServiceError(tooLarge ? 'too-large' : 'bad-request', what));
      return;
    }
    // busboy's own faults (a malformed form): the client's.
    next(new ServiceError('bad-request', `the form could not be read: ${(err as Error).message ?? err}`));
  });
}

export function checkRoutes(checks: CheckService): express.Router {
  const router = express.Router();
  router.post(
    '/api/checks',
    async (req, _res, next) => {
      await checks.admit(req.ip ?? 'unknown');
      next();
    },
    parseForm,
    async (req, res) => {
      const files = (req.files ?? {}) as Record<string, Express.Multer.File[] | undefined>;
      const file = (name: string): Upload | undefined => {
        const f = files[name]?.[0];
        return f ? { bytes: f.buffer } : undefined;
      };
      const before = file('before');
      const after = file('after');
      const view = await checks.create(req.body ?? {}, {
        ...(before ? { before } : {}),
        ...(after ? { after } : {}),
      });
      res.status(201).json(view);
    },
  );
  router.post(
    '/api/checks/gcg',
    async (req, _res, next) => {
      // Rescoring a record is work on the main thread: limited like checks.
      await checks.admit(req.ip ?? 'unknown');
      next();
    },
    express.raw({ type: () => true, limit: '1mb' }),
    async (req, res) => {
      const body = req.body as Buffer;
      if (!Buffer.isBuffer(body) || body.length === 0)
        throw new ServiceError('bad-request', 'send the GCG file as the request body');
      const lang = typeof req.query.lang === 'string' ? req.query.lang : undefined;
      res.json(await checks.gcg(body, lang));
    },
  );
  router.get('/api/checks/:id', async (req, res) => {
    res.json(await checks.get(req.params.id!));
  });
  for (const which of ['before', 'after'] as const) {
    router.get(`/api/checks/:id/${which}`, async (req, res) => {
      const image = await checks.photo(req.params.id!, which);
      res
        .type(image.type)
        .set('Cache-Control', 'public, max-age=86400, immutable')
        .send(Buffer.from(image.bytes));
    });
  }
  router.get('/api/checks/:id/card.png', async (req, res) => {
    const png = await checks.card(req.params.id!);
    res.type('image/png').set('Cache-Control', 'public, max-age=86400, immutable').send(png);
  });
  router.get('/api/games/:id/turns/:n/check', async (req, res) => {
    const n = req.params.n!;
    if (!/^\d{1,5}$/.test(n)) throw new ServiceError('bad-request', 'a turn is a number from 0');
    res.json(await checks.turn(req.params.id!, Number(n)));
  });
  return router;
}
