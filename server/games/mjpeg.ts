/**
 * Frames from an MJPEG stream (`multipart/x-mixed-replace`, what phone "IP camera" apps serve): the server pulls
 * the URL and yields each JPEG part. Parts are cut at the boundary the response declares; a part's headers end at
 * the first blank line.
 */

/** Largest single frame accepted from a stream. */
const MAX_FRAME = 10 * 1024 * 1024;

export async function* mjpegFrames(url: string, signal: AbortSignal): AsyncGenerator<Buffer> {
  const res = await fetch(url, { signal });
  if (!res.ok || !res.body) throw new Error(`the stream answered HTTP ${res.status}`);
  const type = res.headers.get('content-type') ?? '';
  const m = /boundary="?([^";]+)"?/i.exec(type);
  if (!/multipart\/x-mixed-replace/i.test(type) || !m)
    throw new Error(`not an MJPEG stream (content-type ${type || 'missing'})`);
  const boundary = Buffer.from(`--${m[1]!.replace(/^--/, '')}`);
  let buffer = Buffer.alloc(0);
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const start = buffer.indexOf(boundary);
      if (start < 0) break;
      const next = buffer.indexOf(boundary, start + boundary.length);
      if (next < 0) break;
      const part = buffer.subarray(start + boundary.length, next);
      buffer = buffer.subarray(next);
      const headersEnd = part.indexOf('\r\n\r\n');
      if (headersEnd < 0) continue;
      let body = part.subarray(headersEnd + 4);
      if (body.subarray(-2).toString() === '\r\n') body = body.subarray(0, -2);
      if (body.length > 0 && body[0] === 0xff && body[1] === 0xd8) yield Buffer.from(body);
    }
    if (buffer.length > MAX_FRAME) throw new Error('a frame of the stream is over 10 MB');
  }
}
