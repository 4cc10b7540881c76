/** Output folders named on the command line (`--debug DIR`), made and checked before any work is done. */
import { constants } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Makes `dir` (and its missing parents) and checks it can be written to; says why not, or undefined. */
export async function outputFolder(dir: string): Promise<string | undefined> {
  const code = (err: unknown) => (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  try {
    await mkdir(dir);
  } catch (err) {
    if (code(err) === 'EEXIST') {
      if (!(await stat(dir)).isDirectory()) return `${dir} is not a folder`;
    } else if (code(err) === 'ENOENT' && !(await stat(dirname(dir)).catch(() => undefined))) {
      // Missing parents are made too. (Only then: a recursive mkdir where the parent exists but refuses children,
      // as /proc does, never returns on Node 20.)
      try {
        await mkdir(dir, { recursive: true });
      } catch (inner) {
        return `cannot make the folder ${dir}: ${code(inner)}`;
      }
    } else return `cannot make the folder ${dir}: ${code(err)}`;
  }
  try {
    await access(dir, constants.W_OK);
  } catch {
    return `cannot write to the folder ${dir}`;
  }
  return undefined;
}
