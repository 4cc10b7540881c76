/**
 * GCG bytes to text: the `#character-encoding` pragma (UTF-8 or ISO-8859-1) if present, else UTF-8 when the bytes
 * are valid UTF-8, else ISO-8859-1 (the GCG default). Uses only the standard `TextDecoder`.
 */
import type { Failure, Result } from '../result.ts';

export type DecodeFailure = Failure<'unsupported-encoding' | 'bad-encoding'> & { readonly line: number };

const UTF8 = new Set(['utf-8', 'utf8']);
const LATIN1 = new Set(['iso-8859-1', 'iso8859-1', 'latin1', 'latin-1', 'windows-1252', 'cp1252']);

export function decodeGcg(
  bytes: Uint8Array,
): Result<{ text: string; encoding: 'utf-8' | 'latin1' }, DecodeFailure> {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const pragma = /^(?:\uFEFF|\u00EF\u00BB\u00BF)?#character-encoding[ \t]+(\S+)/.exec(head);
  const utf8 = () => {
    try {
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      return undefined;
    }
  };
  if (pragma) {
    const name = pragma[1]!.toLowerCase();
    if (UTF8.has(name)) {
      const text = utf8();
      if (text === undefined) {
        return {
          ok: false,
          reason: 'bad-encoding',
          line: 1,
          message: 'the file says UTF-8 but is not valid UTF-8',
        };
      }
      return { ok: true, text, encoding: 'utf-8' };
    }
    if (LATIN1.has(name))
      return { ok: true, text: new TextDecoder('latin1').decode(bytes), encoding: 'latin1' };
    return {
      ok: false,
      reason: 'unsupported-encoding',
      line: 1,
      message: `unsupported character encoding '${pragma[1]}' (expected UTF-8 or ISO-8859-1)`,
    };
  }
  const text = utf8();
  if (text !== undefined) return { ok: true, text, encoding: 'utf-8' };
  return { ok: true, text: new TextDecoder('latin1').decode(bytes), encoding: 'latin1' };
}
