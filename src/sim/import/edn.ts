/**
 * A small reader for EDN (https://github.com/edn-format/edn), the notation Jepsen and Knossos
 * write histories in: nil, booleans, integers (with N), floats (with M), ratios, strings,
 * characters, keywords, symbols, lists, vectors, maps, sets, tagged elements (`#inst "…"`,
 * `#jepsen.history.Op{…}`: the tag is kept, the value read as usual), `#_` discards and `;`
 * comments. Commas are whitespace. It reads all of EDN rather than the part histories use
 * today, so a nemesis value or a newer record tag never stops a file from loading.
 *
 * Written here rather than taken from npm: the packages for EDN in JavaScript are either
 * unmaintained or ClojureScript runtimes far larger than this file, and none reports the line
 * of a problem, which every error sentence here names.
 */

export class Keyword {
  constructor(readonly name: string) {}
  toString(): string {
    return ':' + this.name;
  }
}

export class Sym {
  constructor(readonly name: string) {}
  toString(): string {
    return this.name;
  }
}

export class Char {
  constructor(readonly char: string) {}
}

export class EdnMap {
  constructor(readonly entries: readonly (readonly [Edn, Edn])[]) {}
  /** The value under a keyword key (`get('process')` for `:process`), or undefined. */
  get(keyword: string): Edn | undefined {
    for (const [k, v] of this.entries) if (k instanceof Keyword && k.name === keyword) return v;
    return undefined;
  }
  has(keyword: string): boolean {
    return this.get(keyword) !== undefined;
  }
}

export class EdnSet {
  constructor(readonly items: readonly Edn[]) {}
}

export class Tagged {
  constructor(
    readonly tag: string,
    readonly value: Edn,
  ) {}
}

/** A list or vector (EDN compares them equal; `kind` only says how it was written). */
export class EdnSeq extends Array<Edn> {
  kind: 'vector' | 'list' = 'vector';
}

export type Edn = null | boolean | number | bigint | string | Keyword | Sym | Char | EdnSeq | EdnMap | EdnSet | Tagged;

/** Where a problem is: 1-based line and column. */
export class EdnError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly what: string,
  ) {
    super(`line ${line}, column ${column}: ${what}`);
  }
}

/** A top-level form and the line it starts on. */
export interface Form {
  readonly value: Edn;
  readonly line: number;
}

const DELIMS = new Set(['(', ')', '[', ']', '{', '}', '"', ';']);
const isSpace = (c: string) => c === ' ' || c === ',' || c === '\n' || c === '\t' || c === '\r' || c === '\f' || c === '\v';

const CLOSER: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
const NAMED_CHARS: Record<string, string> = { newline: '\n', space: ' ', tab: '\t', return: '\r', backspace: '\b', formfeed: '\f' };

/** Reads EDN text; every collection's start line is kept in `lines` (for the sentences that name a line). */
export class EdnReader {
  private pos = 0;
  private line = 1;
  private col = 1;
  /** Start line of every collection read (maps, seqs, sets). */
  readonly lines = new WeakMap<object, number>();
  /** Per list or vector: the start line of each of its items (numbers and keywords have no identity to key a map by). */
  readonly itemLines = new WeakMap<object, number[]>();

  constructor(private readonly text: string) {}

  /** Every top-level form, in order. */
  readAll(): Form[] {
    const out: Form[] = [];
    for (;;) {
      this.skip();
      if (this.pos >= this.text.length) return out;
      const line = this.line;
      const value = this.read();
      if (value === DISCARDED) continue;
      out.push({ value, line });
    }
  }

  private error(what: string, line = this.line, col = this.col): never {
    throw new EdnError(line, col, what);
  }

  private peek(): string {
    return this.text[this.pos] ?? '';
  }

  private advance(): string {
    const c = this.text[this.pos++];
    if (c === '\n') {
      this.line++;
      this.col = 1;
    } else this.col++;
    return c;
  }

  private skip(): void {
    while (this.pos < this.text.length) {
      const c = this.peek();
      if (isSpace(c)) this.advance();
      else if (c === ';') while (this.pos < this.text.length && this.peek() !== '\n') this.advance();
      else return;
    }
  }

  private read(): Edn | typeof DISCARDED {
    this.skip();
    if (this.pos >= this.text.length) this.error('expected a value, found the end of the file');
    const line = this.line;
    const col = this.col;
    const c = this.peek();
    switch (c) {
      case '(':
      case '[': {
        this.advance();
        const seq = new EdnSeq();
        seq.kind = c === '(' ? 'list' : 'vector';
        this.lines.set(seq, line);
        const itemLines: number[] = [];
        for (const v of this.readUntil(CLOSER[c], c === '(' ? 'list' : 'vector', line, col, itemLines)) seq.push(v);
        this.itemLines.set(seq, itemLines);
        return seq;
      }
      case '{': {
        this.advance();
        const items = this.readUntil('}', 'map', line, col);
        if (items.length % 2 === 1) this.error(`the map opened here has a key without a value (${items.length} forms)`, line, col);
        const entries: [Edn, Edn][] = [];
        for (let i = 0; i < items.length; i += 2) entries.push([items[i], items[i + 1]]);
        const map = new EdnMap(entries);
        this.lines.set(map, line);
        return map;
      }
      case ')':
      case ']':
      case '}':
        this.error(`unexpected "${c}" with nothing open to close`);
        break;
      case '"':
        return this.readString();
      case '\\':
        return this.readChar();
      case '#':
        return this.readDispatch(line, col);
      default:
        return this.readAtom();
    }
  }

  private readUntil(closer: string, what: string, line: number, col: number, itemLines?: number[]): Edn[] {
    const out: Edn[] = [];
    for (;;) {
      this.skip();
      if (this.pos >= this.text.length) this.error(`the ${what} opened at line ${line}, column ${col} is never closed with "${closer}"`);
      const c = this.peek();
      if (c === closer) {
        this.advance();
        return out;
      }
      if (c === ')' || c === ']' || c === '}') this.error(`expected "${closer}" to close the ${what} opened at line ${line}, found "${c}"`);
      const at = this.line;
      const v = this.read();
      if (v !== DISCARDED) {
        out.push(v);
        itemLines?.push(at);
      }
    }
  }

  private readString(): string {
    const line = this.line;
    const col = this.col;
    this.advance();
    let out = '';
    for (;;) {
      if (this.pos >= this.text.length) this.error(`the string opened at line ${line}, column ${col} is never closed`);
      const c = this.advance();
      if (c === '"') return out;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = this.advance();
      switch (e) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'u': {
          const hex = this.text.slice(this.pos, this.pos + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.error(`expected four hex digits after \\u in a string, found "${hex}"`);
          for (let i = 0; i < 4; i++) this.advance();
          out += String.fromCharCode(parseInt(hex, 16));
          break;
        }
        default:
          this.error(`unknown escape "\\${e ?? ''}" in a string`);
      }
    }
  }

  private token(): string {
    const start = this.pos;
    while (this.pos < this.text.length && !isSpace(this.peek()) && !DELIMS.has(this.peek())) this.advance();
    return this.text.slice(start, this.pos);
  }

  private readChar(): Char {
    this.advance();
    // The character itself may be a delimiter (\( or \space's first letter).
    const first = this.advance() ?? '';
    const rest = this.token();
    const name = first + rest;
    if (name.length === 1) return new Char(name);
    if (NAMED_CHARS[name] !== undefined) return new Char(NAMED_CHARS[name]);
    if (/^u[0-9a-fA-F]{4}$/.test(name)) return new Char(String.fromCharCode(parseInt(name.slice(1), 16)));
    this.error(`unknown character literal "\\${name}"`);
  }

  private readDispatch(line: number, col: number): Edn | typeof DISCARDED {
    this.advance();
    const c = this.peek();
    if (c === '{') {
      this.advance();
      const set = new EdnSet(this.readUntil('}', 'set', line, col));
      this.lines.set(set, line);
      return set;
    }
    if (c === '_') {
      this.advance();
      this.read();
      return DISCARDED;
    }
    if (c === '#') {
      // ##Inf, ##-Inf, ##NaN
      this.advance();
      const t = this.token();
      if (t === 'Inf') return Infinity;
      if (t === '-Inf') return -Infinity;
      if (t === 'NaN') return NaN;
      this.error(`unknown symbolic value "##${t}"`, line, col);
    }
    const tag = this.token();
    if (tag === '' || !/^[A-Za-z]/.test(tag)) this.error(`expected a tag, a set or a discard after "#", found "${c}"`, line, col);
    const value = this.read();
    if (value === DISCARDED) this.error(`the tag #${tag} has no value`, line, col);
    const tagged = new Tagged(tag, value);
    this.lines.set(tagged, line);
    return tagged;
  }

  private readAtom(): Edn {
    const line = this.line;
    const col = this.col;
    const t = this.token();
    if (t === '') this.error(`unexpected "${this.peek()}"`);
    if (t === 'nil') return null;
    if (t === 'true') return true;
    if (t === 'false') return false;
    if (t[0] === ':') {
      if (t.length === 1) this.error('a keyword needs a name after ":"', line, col);
      return new Keyword(t.slice(t[1] === ':' ? 2 : 1));
    }
    if (/^[+-]?\d/.test(t)) return this.number(t, line, col);
    return new Sym(t);
  }

  private number(t: string, line: number, col: number): number | bigint {
    let m = /^([+-]?)(\d+)N?$/.exec(t);
    if (m) {
      const big = BigInt(m[1] + m[2]);
      return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
    }
    m = /^([+-]?\d+)\/(\d+)$/.exec(t);
    if (m) return Number(m[1]) / Number(m[2]);
    if (/^[+-]?\d+(\.\d*)?([eE][+-]?\d+)?M?$/.test(t)) return Number(t.replace(/M$/, ''));
    if (/^[+-]?0[xX][0-9a-fA-F]+$/.test(t)) return Number(t);
    this.error(`"${t}" is not a number`, line, col);
  }
}

const DISCARDED = Symbol('discarded');

/** Parses EDN text into its top-level forms (throws EdnError naming the line and column). */
export function readEdn(text: string): { forms: Form[]; lines: WeakMap<object, number>; itemLines: WeakMap<object, number[]> } {
  const reader = new EdnReader(text);
  const forms = reader.readAll();
  return { forms, lines: reader.lines, itemLines: reader.itemLines };
}

/** Reads exactly one EDN value (a flag's value, one field of a log line). */
export function readOneEdn(text: string): Edn {
  const { forms } = readEdn(text);
  if (forms.length !== 1)
    throw new EdnError(1, 1, forms.length === 0 ? 'expected a value, found nothing' : `expected one value, found ${forms.length}`);
  return forms[0].value;
}

/** EDN text for a value, canonical (map entries and set items sorted): equal values print equal. */
export function printEdn(v: Edn): string {
  if (v === null) return 'nil';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return Number.isNaN(v) ? '##NaN' : v === Infinity ? '##Inf' : v === -Infinity ? '##-Inf' : String(v);
  if (typeof v === 'bigint') return `${v}N`;
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof Keyword) return ':' + v.name;
  if (v instanceof Sym) return v.name;
  if (v instanceof Char) return '\\' + (v.char === ' ' ? 'space' : v.char === '\n' ? 'newline' : v.char === '\t' ? 'tab' : v.char);
  if (v instanceof EdnSeq) return (v.kind === 'list' ? '(' : '[') + v.map(printEdn).join(' ') + (v.kind === 'list' ? ')' : ']');
  if (v instanceof EdnMap) {
    const parts = v.entries.map(([k, x]) => `${printEdn(k)} ${printEdn(x)}`).sort();
    return '{' + parts.join(', ') + '}';
  }
  if (v instanceof EdnSet) return '#{' + v.items.map(printEdn).sort().join(' ') + '}';
  return `#${v.tag} ${printEdn(v.value)}`;
}

/** A value as plain JSON (keywords as ":name" strings, maps as objects when their keys allow, else entry lists). */
export function ednToJson(v: Edn): unknown {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Keyword) return ':' + v.name;
  if (v instanceof Sym || v instanceof Char) return printEdn(v);
  if (v instanceof EdnSeq) return v.map(ednToJson);
  if (v instanceof EdnSet) return { '#set': v.items.map(ednToJson) };
  if (v instanceof Tagged) return { ['#' + v.tag]: ednToJson(v.value) };
  const obj: Record<string, unknown> = {};
  for (const [k, x] of v.entries) obj[typeof k === 'string' ? k : printEdn(k)] = ednToJson(x);
  return obj;
}

/** A record tag wraps the map it prints (`#jepsen.history.Op{…}`): the map, else the value itself. */
export function untag(v: Edn): Edn {
  while (v instanceof Tagged) v = v.value;
  return v;
}
