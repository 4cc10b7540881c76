/**
 * Each command's options are declared once, here in its spec: `parseCommand` parses by it (node:util `parseArgs`,
 * strict: an unknown option is an error) and main.ts prints the help from it, so help and parser cannot disagree.
 */
import { parseArgs } from 'node:util';
import { argsError, reportError } from './errors.ts';

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly multiple?: boolean;
  /** What the value looks like, in the help (`en|de`, `FILE`, `3000`). */
  readonly value?: string;
  /** What it does, in the help: one line. */
  readonly help: string;
}

export interface CommandSpec<O extends Record<string, OptionSpec> = Record<string, OptionSpec>> {
  /** What it takes, after `tilecam`: one line each way of calling it. */
  readonly synopsis: readonly string[];
  /** What it does: one line. */
  readonly summary: string;
  readonly options: O;
  /** Whether it takes arguments besides its options. */
  readonly positionals: boolean;
}

/** The values parsed for options `O`: a string, a boolean, or strings for a repeatable option. */
export type Values<O extends Record<string, OptionSpec>> = {
  [K in keyof O]?: O[K]['type'] extends 'boolean'
    ? boolean
    : O[K]['multiple'] extends true
      ? string[]
      : string;
};

/** `args` parsed by `spec`; throws parseArgs's error (errors.ts `argsError` words it) on an unknown or bad option. */
export function parseCommand<O extends Record<string, OptionSpec>>(
  spec: CommandSpec<O>,
  args: readonly string[],
): { values: Values<O>; positionals: string[] } {
  const options = Object.fromEntries(
    Object.entries(spec.options).map(([name, o]) => [
      name,
      o.multiple ? { type: o.type, multiple: true } : { type: o.type },
    ]),
  );
  const { values, positionals } = parseArgs({
    args: [...args],
    options,
    allowPositionals: spec.positionals,
    strict: true,
  });
  return { values: values as Values<O>, positionals };
}

/** A command line parsed by its spec, and whether the command answers in JSON. */
export interface CommandLine<O extends Record<string, OptionSpec>> {
  readonly values: Values<O>;
  readonly positionals: string[];
  readonly json: boolean;
}

/**
 * `args` parsed by `spec`; on a bad command line, what was wrong is said (as JSON too with --json) and the exit code
 * comes back instead: 1, or `failCode` (`tilecam verify`: 2, "cannot settle").
 */
export function commandLine<O extends Record<string, OptionSpec>>(
  spec: CommandSpec<O>,
  args: readonly string[],
  failCode = 1,
): CommandLine<O> | number {
  const json = args.includes('--json');
  try {
    return { ...parseCommand(spec, args), json };
  } catch (err) {
    return reportError(json, argsError(err), {}, failCode);
  }
}

/** The help's option lines: `--name VALUE` and what it does. */
export function optionLines(options: Record<string, OptionSpec>): (readonly [string, string])[] {
  return Object.entries(options).map(([name, o]) => [
    `--${name}${o.value ? ` ${o.value}` : ''}`,
    `${o.help}${o.multiple ? '; repeatable' : ''}`,
  ]);
}
