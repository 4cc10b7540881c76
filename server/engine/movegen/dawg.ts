/**
 * A lexicon as a minimal DAWG (directed acyclic word graph): the trie of its words with every set of equal suffixes
 * stored once, built in one pass over the sorted words (Daciuk, Mihov, Watson and Watson 2000, "Incremental
 * construction of minimal acyclic finite-state automata"). The move generator walks it letter by letter.
 *
 * Flat typed arrays, so that it costs a few bytes a node and can be kept on disk as it is (`toBytes`): node n's
 * edges are `edgeTarget[first[n] ..]`, one per letter set in `mask[n]`, in the alphabet's order, so the child for
 * letter L is found by counting the bits of the mask below L. Letters are indexes into the alphabet (at most 32).
 */

const MAGIC = 0x47574144; // "DAWG"
const FORMAT = 1;

export class Dawg {
  private constructor(
    /** The letters, in the order their indexes follow. */
    readonly alphabet: string,
    /** Per node: which letters have an edge (bit L for letter L). */
    private readonly mask: Uint32Array,
    /** Per node: where its edges start in `edgeTarget`. */
    private readonly first: Uint32Array,
    /** Per node: 1 when a word ends there. */
    private readonly final: Uint8Array,
    private readonly edgeTarget: Uint32Array,
    /** How many words it holds. */
    readonly size: number,
  ) {
    this.index = new Map([...alphabet].map((ch, i) => [ch, i]));
  }

  private readonly index: Map<string, number>;

  /** The root node: the empty prefix. */
  readonly root = 0;

  /** The index of `letter` in the alphabet, or -1. */
  letterIndex(letter: string): number {
    return this.index.get(letter) ?? -1;
  }

  /** The node reached from `node` by letter index `letter`, or -1. */
  child(node: number, letter: number): number {
    const m = this.mask[node]!;
    const bit = 1 << letter;
    if ((m & bit) === 0) return -1;
    return this.edgeTarget[this.first[node]! + popcount(m & (bit - 1))]!;
  }

  /** The letters with an edge out of `node` (bit L for letter L). */
  letters(node: number): number {
    return this.mask[node]!;
  }

  /** Whether a word ends at `node`. */
  isFinal(node: number): boolean {
    return this.final[node] === 1;
  }

  /** The node a word (uppercase letters of the alphabet) leads to, or -1. */
  walk(word: string, from = this.root): number {
    let node = from;
    for (const ch of word) {
      const l = this.index.get(ch);
      if (l === undefined) return -1;
      node = this.child(node, l);
      if (node < 0) return -1;
    }
    return node;
  }

  /** Whether `word` (uppercase) is in the lexicon. */
  has(word: string): boolean {
    const node = this.walk(word);
    return node >= 0 && this.isFinal(node);
  }

  /** Nodes and edges, for the memory figures. */
  get counts(): { nodes: number; edges: number; bytes: number } {
    const nodes = this.mask.length;
    const edges = this.edgeTarget.length;
    return { nodes, edges, bytes: nodes * 9 + edges * 4 };
  }

  /**
   * The DAWG of `words` over `alphabet` (uppercase letters, each one character). Words shorter than two letters, or
   * with a letter outside the alphabet, are left out: no play forms them.
   */
  static build(alphabet: string, words: Iterable<string>): Dawg {
    const letters = [...alphabet];
    if (letters.length > 32) throw new Error('a DAWG alphabet has at most 32 letters');
    const index = new Map(letters.map((ch, i) => [ch, i]));
    // Each word as a string of code units 0..n-1 in alphabet order, so that sorting the strings sorts by alphabet.
    const coded: string[] = [];
    for (const word of words) {
      if (word.length < 2) continue;
      let s = '';
      let ok = true;
      for (const ch of word) {
        const l = index.get(ch);
        if (l === undefined) {
          ok = false;
          break;
        }
        s += String.fromCharCode(l);
      }
      if (ok) coded.push(s);
    }
    coded.sort();
    return fromSorted(alphabet, coded);
  }

  /** The DAWG as bytes, to keep on disk (`fromBytes` reads it back): the header little-endian, the arrays in this
   *  machine's own byte order (a kept file is read back where it was written). */
  toBytes(): Uint8Array {
    const alpha = new TextEncoder().encode(this.alphabet);
    const nodes = this.mask.length;
    const edges = this.edgeTarget.length;
    const head = 6 * 4;
    const alphaPad = Math.ceil(alpha.length / 4) * 4;
    const finalPad = Math.ceil(nodes / 4) * 4;
    const bytes = new Uint8Array(head + alphaPad + nodes * 8 + finalPad + edges * 4);
    const view = new DataView(bytes.buffer);
    const head32 = [MAGIC, FORMAT, alpha.length, nodes, edges, this.size];
    for (let i = 0; i < head32.length; i++) view.setUint32(i * 4, head32[i]!, true);
    let at = head;
    bytes.set(alpha, at);
    at += alphaPad;
    const put = (a: Uint32Array | Uint8Array) => {
      bytes.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), at);
      at += a.byteLength;
    };
    put(this.mask);
    put(this.first);
    put(this.final);
    at = head + alphaPad + nodes * 8 + finalPad;
    put(this.edgeTarget);
    return bytes;
  }

  /** A DAWG written by `toBytes`; undefined when the bytes are not one (another format, cut short). */
  static fromBytes(bytes: Uint8Array): Dawg | undefined {
    if (bytes.byteLength < 24) return undefined;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const [magic, format, alphaLen, nodes, edges, size] = [0, 1, 2, 3, 4, 5].map((i) =>
      view.getUint32(i * 4, true),
    ) as [number, number, number, number, number, number];
    if (magic !== MAGIC || format !== FORMAT) return undefined;
    const alphaPad = Math.ceil(alphaLen / 4) * 4;
    const finalPad = Math.ceil(nodes / 4) * 4;
    const need = 24 + alphaPad + nodes * 8 + finalPad + edges * 4;
    if (bytes.byteLength !== need || nodes === 0) return undefined;
    // A copy aligned for the typed arrays, whatever the offset of the bytes given.
    const own = bytes.slice();
    let at = 24;
    const alphabet = new TextDecoder().decode(own.subarray(at, at + alphaLen));
    at += alphaPad;
    const mask = new Uint32Array(own.buffer, at, nodes);
    at += nodes * 4;
    const first = new Uint32Array(own.buffer, at, nodes);
    at += nodes * 4;
    const final = new Uint8Array(own.buffer, at, nodes);
    at += finalPad;
    const edgeTarget = new Uint32Array(own.buffer, at, edges);
    // Every edge must point at a node, every node's edges lie within the edge list and be for a letter of the
    // alphabet, and a node end a word or not.
    const letters = [...alphabet].length;
    if (letters === 0 || letters > 32) return undefined;
    const beyond = letters === 32 ? 0 : ~((1 << letters) - 1) >>> 0;
    for (let n = 0; n < nodes; n++)
      if (first[n]! + popcount(mask[n]!) > edges || (mask[n]! & beyond) !== 0 || final[n]! > 1)
        return undefined;
    for (let e = 0; e < edges; e++) if (edgeTarget[e]! >= nodes) return undefined;
    return new Dawg(alphabet, mask, first, final, edgeTarget, size);
  }

  /** @internal */
  static of(
    alphabet: string,
    mask: Uint32Array,
    first: Uint32Array,
    final: Uint8Array,
    edgeTarget: Uint32Array,
    size: number,
  ): Dawg {
    return new Dawg(alphabet, mask, first, final, edgeTarget, size);
  }
}

export function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** A node while the graph is built: its edges in letter order (the words come sorted). */
interface Building {
  final: boolean;
  letters: number[];
  children: Building[];
  /** Its number once registered (equal to no other registered node). */
  id: number;
}

function fromSorted(alphabet: string, words: readonly string[]): Dawg {
  const root: Building = { final: false, letters: [], children: [], id: -1 };
  const register = new Map<string, Building>();
  const registered: Building[] = [];
  let size = 0;
  const signature = (n: Building) => {
    let s = n.final ? '1' : '0';
    for (let k = 0; k < n.letters.length; k++) s += `,${n.letters[k]}:${n.children[k]!.id}`;
    return s;
  };
  // Replaces the last child of `node` (and, first, its own last children) by an equal registered node.
  const replaceOrRegister = (node: Building) => {
    const k = node.children.length - 1;
    const child = node.children[k]!;
    if (child.children.length > 0) replaceOrRegister(child);
    const key = signature(child);
    const same = register.get(key);
    if (same) node.children[k] = same;
    else {
      child.id = registered.length;
      registered.push(child);
      register.set(key, child);
    }
  };
  let previous = '';
  for (const word of words) {
    if (word === previous) continue;
    let common = 0;
    while (common < word.length && common < previous.length && word[common] === previous[common]) common++;
    let node = root;
    for (let k = 0; k < common; k++) node = node.children[node.children.length - 1]!;
    if (node.children.length > 0) replaceOrRegister(node);
    for (let k = common; k < word.length; k++) {
      const next: Building = { final: false, letters: [], children: [], id: -1 };
      node.letters.push(word.charCodeAt(k));
      node.children.push(next);
      node = next;
    }
    node.final = true;
    size++;
    previous = word;
  }
  if (root.children.length > 0) replaceOrRegister(root);
  // Flatten: the root is node 0, the registered nodes follow.
  const all = [root, ...registered];
  const number = new Map<Building, number>(all.map((n, i) => [n, i]));
  const mask = new Uint32Array(all.length);
  const first = new Uint32Array(all.length);
  const final = new Uint8Array(all.length);
  let edges = 0;
  for (const n of all) edges += n.letters.length;
  const edgeTarget = new Uint32Array(edges);
  let at = 0;
  all.forEach((n, i) => {
    first[i] = at;
    final[i] = n.final ? 1 : 0;
    let m = 0;
    for (let k = 0; k < n.letters.length; k++) {
      m |= 1 << n.letters[k]!;
      edgeTarget[at++] = number.get(n.children[k]!)!;
    }
    mask[i] = m >>> 0;
  });
  return Dawg.of(alphabet, mask, first, final, edgeTarget, size);
}
