/**
 * GCG documents to text in the form macondo writes today: uppercase coordinates, fields joined by one space with
 * an empty field where there is nothing to say (no rack: `>p:  (OPEG)`; a pass or a withdrawal has no word:
 * `-  +0`, `--  -24`), `\n` line ends. `writeGcg(readGcg(x))` gives back `x` for files in that form.
 */
import { formatPosition } from '../coords.ts';
import type { GcgDocument, GcgEntry } from './read.ts';

export function writeGcg(document: GcgDocument): string {
  const out: string[] = [];
  for (const line of document.lines) {
    if (line.type === 'pragma') out.push(oneLine(line.text));
    else if (line.type === 'text') out.push(oneLine(line.text));
    else out.push(oneLine(formatEntry(line.entry)));
  }
  return `${out.join('\n')}\n`;
}

/**
 * A line as written: every control character but the tab, and Unicode's line and paragraph separators, become a
 * space. Whatever text a document holds (a player's name stored before names were checked), it cannot end its line
 * and start another: no name or word adds a move or a pragma to the file.
 */
function oneLine(text: string): string {
  return text.replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, (c) => (c === '\t' ? c : ' '));
}

export function formatEntry(entry: GcgEntry): string {
  const fields = [`>${entry.nick}:`, entry.rack ?? ''];
  switch (entry.kind) {
    case 'play':
      fields.push(formatPosition(entry.position), entry.word);
      break;
    case 'pass':
      fields.push('-', '');
      break;
    case 'exchange':
      fields.push(`-${entry.tiles}`);
      break;
    case 'withdraw':
      fields.push('--', '');
      break;
    case 'challenge-bonus':
      fields.push('(challenge)');
      break;
    case 'time-penalty':
      fields.push('(time)');
      break;
    case 'end-rack':
      fields.push(`(${entry.letters})`);
      break;
  }
  fields.push(entry.score >= 0 ? `+${entry.score}` : String(entry.score), String(entry.total));
  if (entry.trailing) fields.push(entry.trailing);
  return fields.join(' ');
}
