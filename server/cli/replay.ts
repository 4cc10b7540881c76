/**
 * `tilecam replay FILE.gcg… [--json] [--lang …] [--end-rack double|seeds]`: recomputes every turn of recorded
 * games with the engine and lists where the record disagrees. Exit 1 (with the line) when a file cannot be read.
 */
import { readFile } from 'node:fs/promises';
import { decodeGcg, isTileSetId, type ReplayReport, readGcg, replayGcg } from '../engine/index.ts';
import { reportError, whyUnreadable } from './errors.ts';
import { type CommandSpec, commandLine } from './options.ts';

export interface ReplayFileResult {
  file: string;
  players: { name: string; score: number }[];
  turns: number;
  mismatches: { line: number; recorded: number; computed: number; field: 'score' | 'total' }[];
}

export type ReplayFileOutcome =
  | { ok: true; result: ReplayFileResult; report: ReplayReport }
  | { ok: false; file: string; line: number; message: string };

/** Reads, decodes and replays one file. */
export async function replayFile(
  file: string,
  options: { lang?: string; endRack?: 'double' | 'seeds' } = {},
): Promise<ReplayFileOutcome> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (err) {
    return {
      ok: false,
      file,
      line: 0,
      message: `cannot read ${file}: ${whyUnreadable(err)}`,
    };
  }
  const decoded = decodeGcg(bytes);
  if (!decoded.ok)
    return {
      ok: false,
      file,
      line: decoded.line,
      message: `${file}: line ${decoded.line}: ${decoded.message}`,
    };
  const read = readGcg(decoded.text);
  if (!read.ok) return { ok: false, file, line: read.line, message: `${file}: ${read.message}` };
  const lang = options.lang !== undefined && isTileSetId(options.lang) ? options.lang : undefined;
  const replayed = replayGcg(read.document, {
    ...(lang ? { lang } : {}),
    ...(options.endRack ? { endRack: options.endRack } : {}),
  });
  if (!replayed.ok) return { ok: false, file, line: replayed.line, message: `${file}: ${replayed.message}` };
  const { report } = replayed;
  return {
    ok: true,
    report,
    result: {
      file,
      players: [...report.players],
      turns: report.turns,
      // The CLI's contract (docs/design.md): line, recorded, computed, field.
      mismatches: report.mismatches.map(({ line, recorded, computed, field }) => ({
        line,
        recorded,
        computed,
        field,
      })),
    },
  };
}

export const replaySpec = {
  synopsis: ['replay FILE.gcg… [options]'],
  summary: "rescore recorded games: every line's points computed from its tiles",
  options: {
    lang: {
      type: 'string',
      value: 'en|de|fr|nl|pl',
      help: 'the tile set (default: guessed from the letters)',
    },
    'end-rack': { type: 'string', value: 'double|seeds', help: 'how racks left at the end count' },
    json: { type: 'boolean', help: 'print one JSON object' },
  },
  positionals: true,
} as const satisfies CommandSpec;

export async function replayCommand(args: string[]): Promise<number> {
  const line = commandLine(replaySpec, args);
  if (typeof line === 'number') return line;
  const { values, positionals, json } = line;
  if (positionals.length === 0) return reportError(json, 'replay needs at least one .gcg file');
  if (values.lang !== undefined && !isTileSetId(values.lang))
    return reportError(json, `unknown --lang '${values.lang}'`);
  if (values['end-rack'] !== undefined && values['end-rack'] !== 'double' && values['end-rack'] !== 'seeds') {
    return reportError(json, `--end-rack must be 'double' or 'seeds'`);
  }
  const results: ReplayFileResult[] = [];
  for (const file of positionals) {
    const outcome = await replayFile(file, {
      ...(values.lang ? { lang: values.lang } : {}),
      ...(values['end-rack'] ? { endRack: values['end-rack'] as 'double' | 'seeds' } : {}),
    });
    if (!outcome.ok) return reportError(json, outcome.message, { file: outcome.file, line: outcome.line });
    results.push(outcome.result);
    if (!json) printHuman(outcome.result);
  }
  if (json) {
    const out = results.length === 1 ? results[0] : { files: results };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  }
  return 0;
}

function printHuman(r: ReplayFileResult): void {
  const players = r.players.map((p) => `${p.name} ${p.score}`).join(', ');
  const status = r.mismatches.length === 0 ? 'every turn agrees' : `${r.mismatches.length} mismatch(es)`;
  process.stdout.write(`${r.file}: ${r.turns} lines; ${players}; ${status}\n`);
  for (const m of r.mismatches) {
    process.stdout.write(`  line ${m.line}: ${m.field} recorded ${m.recorded}, computed ${m.computed}\n`);
  }
}
