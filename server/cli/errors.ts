/**
 * How the CLI reports a failure: a clear line on stderr, and with `--json` a JSON `{ error }` object on stdout.
 * Returns the exit code: 1, unless the command says otherwise (`tilecam verify`: 2, "cannot settle").
 */
export function reportError(
  json: boolean,
  message: string,
  extra: Record<string, unknown> = {},
  code = 1,
): number {
  if (json) process.stdout.write(`${JSON.stringify({ error: { message, ...extra } })}\n`);
  process.stderr.write(`tilecam: ${message}\n`);
  return code;
}
