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

/** Why a file or folder named on the command line could not be read, in words (the system's code otherwise). */
export function whyUnreadable(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or folder';
    case 'EISDIR':
      return 'it is a folder, not a file';
    case 'ENOTDIR':
      return 'not a folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return code ?? (err instanceof Error ? err.message : String(err));
  }
}

/** What was wrong with a command line parseArgs refused, in tilecam's words (an unknown option: where to look). */
export function argsError(err: unknown): string {
  const e = err as { code?: string; message?: string } | null;
  const option = /'(-[^']*)'/.exec(e?.message ?? '')?.[1];
  if (e?.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option)
    return `unknown option ${option} (\`tilecam COMMAND --help\` lists a command's options)`;
  return err instanceof Error ? err.message : String(err);
}
