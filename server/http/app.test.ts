import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from './app.ts';

describe('the service', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      db: join(mkdtempSync(join(tmpdir(), 'tilecam-')), 'db.sqlite'),
    });
  });
  afterAll(() => server.close());

  it('answers the health check with the tile sets it knows', async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/api/health`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { lan: unknown };
    expect(body).toMatchObject({ ok: true, name: 'tilecam', tileSets: ['en', 'de', 'fr', 'nl', 'pl'] });
    expect(Array.isArray(body.lan)).toBe(true);
  });
});
