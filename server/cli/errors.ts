/** How the CLI reports a failure: a clear line on stderr, or a JSON `{ error }` object on stdout with `--json`. */
export function reportError(json: boolean, message: string, extra: Record<string, unknown> = {}): number {
  if (json) process.stdout.write(`${JSON.stringify({ error: { message, ...extra } })}\n`);
  process.stderr.write(`tilecam: ${message}\n`);
  return 1;
}
