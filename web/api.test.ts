import { afterEach, describe, expect, it, vi } from 'vitest';
import { failure, request, sendAction } from './api.ts';

/** fetch answering `status` with `body` (a string is sent as it is, anything else as JSON), or failing. */
function answer(status: number | 'unreachable', body?: unknown) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
    if (status === 'unreachable') throw new TypeError('fetch failed');
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });
  });
}

describe('the pages’ API client', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('gives the body of a good answer', async () => {
    answer(200, { games: [] });
    expect(await request('/api/games')).toEqual({ ok: true, status: 200, body: { games: [] } });
  });

  it('gives the server’s error code and message, and says a server not reached in words', async () => {
    answer(409, { error: { code: 'stale', message: 'the game has moved on' } });
    const stale = await request('/api/games/x/actions');
    expect(stale).toEqual({ ok: false, status: 409, code: 'stale', message: 'the game has moved on' });
    expect(failure(stale)).toBe('the game has moved on');
    vi.restoreAllMocks();
    answer('unreachable');
    const gone = await request('/api/games');
    expect(gone).toEqual({ ok: false, status: 0 });
    expect(failure(gone)).toBe('the server could not be reached');
  });

  it('takes an answer that is not JSON (a proxy’s error page) as its status alone', async () => {
    answer(502, '<html>Bad gateway</html>');
    const bad = await request('/api/games');
    expect(bad).toEqual({ ok: false, status: 502 });
    expect(failure(bad, 'the server refused it')).toBe('the server refused it');
    expect(failure(bad)).toBe('the server answered 502');
  });

  it('sends an action with the token and the version it was made against', async () => {
    const fetch = answer(200, { snapshot: { version: 4 } });
    await sendAction('a1b2c3d4', 'tok', { type: 'pass', version: 3 });
    const [url, init = {}] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/games/a1b2c3d4/actions');
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer tok');
    expect(JSON.parse(String(init.body))).toEqual({ type: 'pass', version: 3 });
  });
});
