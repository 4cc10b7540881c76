/**
 * The PNG card of a checked score, for a director to show or keep: the board after the move with the new tiles
 * and the words outlined, the premiums used, the arithmetic as sentences and the verdict. Drawn as SVG, rasterised
 * by sharp (librsvg), in the DejaVu fonts every machine here has.
 */
import sharp from 'sharp';
import { premiumAt, premiumName, standardLayout } from '../../engine/index.ts';
import type { Verification } from '../../protocol/index.ts';

const WIDTH = 1200;
const HEIGHT = 630;
const BOARD = 560;
const MARGIN = 35;
const CELL = BOARD / 15;

const PREMIUM_FILL: Record<string, string> = { TW: '#d9534f', DW: '#f3b0b0', TL: '#3b7dd8', DL: '#a9cdf2' };
const WORD_COLOURS = ['#e67e22', '#8e44ad', '#16a085', '#c0392b', '#2c3e50', '#d35400', '#27ae60'];
const VERDICT: Record<Verification['verdict'], { text: string; colour: string }> = {
  right: { text: 'Right', colour: '#1e8449' },
  wrong: { text: 'Wrong', colour: '#c0392b' },
  unsure: { text: 'Cannot settle', colour: '#b9770e' },
};

export async function renderCard(v: Verification): Promise<Buffer> {
  return sharp(Buffer.from(cardSvg(v)))
    .png()
    .toBuffer();
}

export function cardSvg(v: Verification): string {
  const parts: string[] = [];
  parts.push(`<rect width="${WIDTH}" height="${HEIGHT}" fill="#fbf8f1"/>`);
  parts.push(boardSvg(v));
  // The text column.
  const x = MARGIN * 2 + BOARD;
  const width = WIDTH - x - MARGIN;
  let y = MARGIN + 34;
  const verdict = VERDICT[v.verdict];
  const headline =
    v.verdict === 'wrong' && v.points !== null && v.claimed !== null
      ? `${verdict.text}: ${v.points}, not ${v.claimed}`
      : v.verdict === 'right' && v.points !== null
        ? `${verdict.text}: ${v.points}${v.claimed !== null ? ' as claimed' : ''}`
        : verdict.text;
  parts.push(text(x, y, headline, 36, verdict.colour, 'bold'));
  y += 44;
  const main = v.words.find((w) => w.main) ?? v.words[0];
  if (v.move && main) {
    parts.push(
      text(
        x,
        y,
        `${main.word} at ${v.move.position}, ${v.move.tiles.length} new tile${v.move.tiles.length === 1 ? '' : 's'}`,
        22,
        '#333',
      ),
    );
    y += 36;
  }
  const lines: { line: string; colour: string; size: number }[] = [];
  v.words.forEach((w, k) => {
    for (const line of wrap(w.sentence, width, 19))
      lines.push({ line, colour: WORD_COLOURS[k % WORD_COLOURS.length]!, size: 19 });
  });
  if (v.sentence && (v.words.length > 1 || v.bingo > 0))
    for (const line of wrap(`Total: ${v.sentence}`, width, 20))
      lines.push({ line, colour: '#111', size: 20 });
  const reason = v.verdict === 'wrong' ? (v.cause ?? v.message) : v.verdict === 'unsure' ? v.message : null;
  if (reason)
    for (const line of wrap(reason, width, 18)) lines.push({ line, colour: verdict.colour, size: 18 });
  const room = HEIGHT - MARGIN - 30 - y;
  let used = 0;
  for (const l of lines) {
    if (used + l.size * 1.35 > room) {
      parts.push(text(x, y, '…', l.size, '#777'));
      break;
    }
    parts.push(text(x, y, l.line, l.size, l.colour));
    y += l.size * 1.35;
    used += l.size * 1.35;
  }
  parts.push(text(x, HEIGHT - MARGIN, 'Checked with tilecam: every point from the photos', 16, '#888'));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" font-family="DejaVu Sans, sans-serif">${parts.join('')}</svg>`;
}

function boardSvg(v: Verification): string {
  const out: string[] = [];
  const rows = v.boards?.after ?? [];
  const fresh = new Set((v.move?.tiles ?? []).map((t) => t.row * 15 + t.col));
  out.push(
    `<rect x="${MARGIN - 4}" y="${MARGIN - 4}" width="${BOARD + 8}" height="${BOARD + 8}" fill="#2f5d3a" rx="6"/>`,
  );
  for (let row = 0; row < 15; row++) {
    for (let col = 0; col < 15; col++) {
      const x = MARGIN + col * CELL;
      const y = MARGIN + row * CELL;
      const name = premiumName(premiumAt(standardLayout, row, col));
      const tile = [...(rows[row] ?? '')][col] ?? '.';
      out.push(
        `<rect x="${x + 1}" y="${y + 1}" width="${CELL - 2}" height="${CELL - 2}" fill="${name ? PREMIUM_FILL[name] : '#e9e1c9'}"/>`,
      );
      if (tile === '.') {
        if (name) out.push(text(x + CELL / 2, y + CELL / 2 + 4, name, 10, '#fff', 'bold', 'middle'));
        continue;
      }
      const isNew = fresh.has(row * 15 + col);
      out.push(
        `<rect x="${x + 2}" y="${y + 2}" width="${CELL - 4}" height="${CELL - 4}" rx="3" fill="${isNew ? '#ffd54f' : '#f7e7c1'}" stroke="${isNew ? '#a66f00' : '#c9b48a'}"/>`,
      );
      out.push(
        text(
          x + CELL / 2,
          y + CELL / 2 + 7,
          tile === '?' ? '?' : tile,
          20,
          tile !== tile.toUpperCase() || tile === '?' ? '#999' : '#222',
          'bold',
          'middle',
        ),
      );
    }
  }
  v.words.forEach((w, k) => {
    const first = w.letters[0];
    const last = w.letters.at(-1);
    if (!first || !last) return;
    const x = MARGIN + first.col * CELL;
    const y = MARGIN + first.row * CELL;
    const width = (last.col - first.col + 1) * CELL;
    const height = (last.row - first.row + 1) * CELL;
    out.push(
      `<rect x="${x + 1}" y="${y + 1}" width="${width - 2}" height="${height - 2}" rx="5" fill="none" stroke="${WORD_COLOURS[k % WORD_COLOURS.length]}" stroke-width="3"/>`,
    );
  });
  for (const u of v.unsure) {
    out.push(
      `<circle cx="${MARGIN + (u.col + 0.5) * CELL}" cy="${MARGIN + (u.row + 0.5) * CELL}" r="${CELL * 0.62}" fill="none" stroke="#b9770e" stroke-width="3" stroke-dasharray="5 3"/>`,
    );
  }
  return out.join('');
}

function text(
  x: number,
  y: number,
  content: string,
  size: number,
  fill: string,
  weight = 'normal',
  anchor = 'start',
): string {
  return `<text x="${x}" y="${y}" font-size="${size}" fill="${fill}" font-weight="${weight}" text-anchor="${anchor}">${xml(content)}</text>`;
}

function xml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Lines of at most `width` pixels at `size` (DejaVu Sans averages about 0.6 em a character). */
function wrap(s: string, width: number, size: number): string[] {
  const max = Math.max(10, Math.floor(width / (size * 0.6)));
  const lines: string[] = [];
  let line = '';
  for (const word of s.split(' ')) {
    if (line && line.length + 1 + word.length > max) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}
