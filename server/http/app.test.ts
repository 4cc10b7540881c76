import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

  it('serves the pages, the overlay builder and the icon every page links to', async () => {
    const base = `http://127.0.0.1:${server.port}`;
    const builder = await fetch(`${base}/overlay-builder`);
    expect(builder.status).toBe(200);
    expect(await builder.text()).toContain('/app/overlay-builder.js');
    expect((await fetch(`${base}/app/overlay-builder.js`)).status).toBe(200);
    const icon = await fetch(`${base}/favicon.svg`);
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await icon.text()).toContain('<svg');
    const old = await fetch(`${base}/favicon.ico`, { redirect: 'manual' });
    expect(old.status).toBe(301);
    expect(old.headers.get('location')).toBe('/favicon.svg');
    const web = fileURLToPath(new URL('../../web/', import.meta.url));
    const pages = readdirSync(web).filter((f) => f.endsWith('.html'));
    expect(pages.length).toBeGreaterThanOrEqual(6);
    for (const page of pages)
      expect(readFileSync(join(web, page), 'utf8'), page).toContain(
        '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
      );
  });
});
