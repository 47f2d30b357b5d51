/**
 * A run's detail events, kept compactly (issue 24, item 7). Recording each detail as the object
 * graph the engine builds (the record, its `values`, `subjects` and `lines`: four objects, about
 * 250 bytes) made a long run's heap 17 times larger than without details, and its collector a
 * large part of its time, for records read once at the end (the CLI) or only in their newest
 * thousand (the page).
 *
 * So a detail is turned into numbers as it is recorded, and the engine's objects die young. Each
 * detail has a shape (its kind, its value keys in order, its pseudocode lines, which values its
 * subjects repeat), and each slot of a shape (time, event position, each value, a subject that
 * repeats no value) becomes one code: a small whole number as itself; null, undefined, true and
 * false as constants; an actor id (anything that is a subject) as its place in the run's
 * dictionary; anything else (a command, a result, a sentence) as its place in the block's table,
 * which keeps the very object the engine made. The newest block of DETAIL_BLOCK details waits as
 * codes in an Int32Array; a full block is packed into bytes, each whole number as its difference
 * from the same slot of the block's previous detail of that shape (terms and indexes barely
 * move), in 7-bit groups. About 12 bytes a detail.
 *
 * The four kinds every entry produces on every server (leader-append, append-accepted,
 * commit-advanced, applied) arrive without a body at all (hotDetails.ts): their writers below code
 * the values they are handed, with the shapes of the bodies hotDetails.ts would build. Every other
 * kind arrives as a body and goes through the generic path, which reads its keys.
 *
 * Reading gives back records equal to the ones recorded, field for field and in the same key order
 * (so `--json`, `--verbose`, the page and every export see exactly the same details). The last
 * packed block read stays unpacked, so reading in order unpacks each block once. Packed blocks and
 * dictionaries are frozen: a checkpoint's copy of the run (deepClone) shares them.
 */
import type { DetailBody, DetailEvent, DetailKind } from './events';
import { appendAcceptedBody, appliedBody, commitAdvancedBody, leaderAppendBody, type CommitRule } from './hotDetails';
import type { PseudocodeId } from './pseudocodeIds';
import type { ApplyResult, Command } from './types';

/** Details per packed block: few enough that reading one detail unpacks little, enough that a block's own cost is small. */
export const DETAIL_BLOCK = 128;

/** What all details of one shape share; a coded detail starts with its shape's `id`. */
interface Shape {
  readonly id: number;
  readonly kind: DetailKind;
  /** The keys of `values`, in their order. */
  readonly keys: readonly string[];
  readonly lines: readonly PseudocodeId[];
  /** For each subject, its slot: a value's (the subject repeats it) or one of its own after the values. */
  readonly subjects: readonly number[];
  /** Slots per detail: time, event position, the values, then subjects that repeat no value. */
  readonly width: number;
  /** Where this shape's slots start in the numbering of all shapes' slots (for the differences in a block). */
  readonly slotBase: number;
}

/** A block of DETAIL_BLOCK details, packed. Frozen and never changed. */
interface PackedBlock {
  readonly bytes: Uint8Array;
  /** The objects its codes name, in order of use. */
  readonly refs: readonly unknown[];
  /** The run's dictionary when it was packed (every id its codes name). */
  readonly dictionary: readonly unknown[];
}

// -- codes --------------------------------------------------------------------------------------
// Even: a whole number v as 2·zigzag(v) (0, -1, 1, -2 … → 0, 2, 4, 6 …). Odd: 2k + 1, where k is
// 0 null, 1 undefined, 2 false, 3 true, 4 + 2i the dictionary's entry i, 5 + 2j the block's object j.

/**
 * Whole numbers within this bound (37 hours in ms) are coded as numbers, others (and -0) as
 * objects: every code, and every difference's, then stays a small integer, which V8 keeps unboxed.
 */
const SMALL = 0x07ffffff;
const NULL_CODE = 1;
const UNDEFINED_CODE = 3;
const FALSE_CODE = 5;
const TRUE_CODE = 7;

const intCode = (v: number): number => ((v << 1) ^ (v >> 31)) << 1;
const isSmallWhole = (v: unknown): v is number =>
  typeof v === 'number' && (v | 0) === v && v <= SMALL && v >= -SMALL && (v !== 0 || 1 / v > 0);

function valueOf(code: number, dictionary: readonly unknown[], refs: readonly unknown[]): unknown {
  const z = code >>> 1;
  if ((code & 1) === 0) return (z >>> 1) ^ -(z & 1);
  if (z >= 4) return z & 1 ? refs[(z - 5) >>> 1] : dictionary[(z - 4) >>> 1];
  return z === 0 ? null : z === 1 ? undefined : z === 3;
}

// -- shapes -------------------------------------------------------------------------------------
// Shared by every run of the process: a shape is a fact about the code that records details (a
// few dozen of them), and coded details name shapes by number.

const shapes: Shape[] = [];
const shapesByKind = new Map<string, Shape[]>();
const lastShapeOfKind = new Map<string, Shape>();
const NO_KEYS: readonly string[] = [];
let slotCount = 0;

// The generic path's working state (it never nests): the slots of the detail at hand and its value keys.
const slots: unknown[] = [];
const keys: string[] = [];

/**
 * Reads a detail into `slots` (and its value keys into `keys`) and finds, or makes, its shape. The
 * kind's last shape is tried first, its keys checked as they are read.
 */
function shapeOf(body: DetailBody, t: number, afterEvent: number): Shape {
  slots[0] = t;
  slots[1] = afterEvent;
  const values = body.values as Record<string, unknown>;
  const last = lastShapeOfKind.get(body.kind);
  const lastKeys = last !== undefined ? last.keys : NO_KEYS;
  let same = true;
  let n = 0;
  for (const key in values) {
    if (lastKeys[n] !== key) same = false;
    keys[n] = key;
    slots[2 + n] = values[key];
    n++;
  }
  if (last !== undefined && same && n === lastKeys.length && fitsBeyondKeys(last, body, n)) return last;
  let shape: Shape | undefined;
  const candidates = shapesByKind.get(body.kind);
  if (candidates !== undefined) {
    for (let c = 0; c < candidates.length && shape === undefined; c++) {
      const candidate = candidates[c];
      if (sameKeys(candidate, n) && fitsBeyondKeys(candidate, body, n)) shape = candidate;
    }
  }
  if (shape === undefined) shape = addShape(body, n);
  lastShapeOfKind.set(body.kind, shape);
  return shape;
}

function sameKeys(shape: Shape, n: number): boolean {
  const shapeKeys = shape.keys;
  if (shapeKeys.length !== n) return false;
  for (let i = 0; i < n; i++) if (shapeKeys[i] !== keys[i]) return false;
  return true;
}

/** Whether the detail read into `slots` has the shape's lines and subjects; fills the shape's own subject slots. */
function fitsBeyondKeys(shape: Shape, body: DetailBody, n: number): boolean {
  const lines = body.lines;
  const shapeLines = shape.lines;
  if (lines.length !== shapeLines.length) return false;
  for (let i = 0; i < lines.length; i++) if (lines[i] !== shapeLines[i]) return false;
  const subjects = body.subjects;
  const slotOf = shape.subjects;
  if (subjects.length !== slotOf.length) return false;
  const valuesEnd = 2 + n;
  for (let i = 0; i < subjects.length; i++) {
    const slot = slotOf[i];
    if (slot >= valuesEnd) slots[slot] = subjects[i];
    else if (slots[slot] !== subjects[i]) return false;
  }
  return true;
}

function addShape(body: DetailBody, n: number): Shape {
  const valuesEnd = 2 + n;
  let width = valuesEnd;
  const subjects: number[] = [];
  for (const subject of body.subjects) {
    let slot = -1;
    for (let s = 2; s < valuesEnd && slot < 0; s++) if (slots[s] === subject) slot = s;
    if (slot < 0) {
      slot = width++;
      slots[slot] = subject;
    }
    subjects.push(slot);
  }
  const shape: Shape = Object.freeze({
    id: shapes.length,
    kind: body.kind,
    keys: Object.freeze(keys.slice(0, n)),
    lines: Object.freeze([...body.lines]),
    subjects: Object.freeze(subjects),
    width,
    slotBase: slotCount,
  });
  shapes.push(shape);
  let list = shapesByKind.get(body.kind);
  if (list === undefined) shapesByKind.set(body.kind, (list = []));
  list.push(shape);
  slotCount += width;
  return shape;
}

// -- the hot kinds (hotDetails.ts) --------------------------------------------------------------
// Their shapes are read off the bodies hotDetails.ts builds, so a detail coded by a writer below and
// the same detail coded from its body are the same codes.

const SAMPLE = 'sample';
const hotShape = (body: DetailBody): number => shapeOf(body, 0, 0).id;
const LEADER_APPEND = hotShape(leaderAppendBody(SAMPLE, 1, 1, 'x', false));
const LEADER_NOOP = hotShape(leaderAppendBody(SAMPLE, 1, 1, 'x', true));
const APPEND_ACCEPTED = hotShape(appendAcceptedBody(SAMPLE, 'leader', 1, 1, 1, 1));
const COMMIT_BY_FOLLOWER = hotShape(commitAdvancedBody(SAMPLE, 0, 1, 1, 'leader-commit', null, null, 'leader', 1, false));
/** Indexed by (rule is 'majority' ? 0 : 2) + (memberCount ? 1 : 0). */
const COMMIT_BY_LEADER = [
  hotShape(commitAdvancedBody(SAMPLE, 0, 1, 1, 'majority', 1, 1, null, null, false)),
  hotShape(commitAdvancedBody(SAMPLE, 0, 1, 1, 'majority', 1, 1, null, null, true)),
  hotShape(commitAdvancedBody(SAMPLE, 0, 1, 1, 'earlier-term-by-counting', 1, 1, null, null, false)),
  hotShape(commitAdvancedBody(SAMPLE, 0, 1, 1, 'earlier-term-by-counting', 1, 1, null, null, true)),
];
const APPLIED = hotShape(appliedBody(SAMPLE, 1, 1, 'x', null));

/**
 * Whether a hot kind's number is one the codes hold as a number (else its writer takes the body's
 * path). These are terms, indexes, counts and times, made by adding and subtracting whole
 * numbers, which never gives -0, so the generic path's -0 test is left out.
 */
const small = (v: number): boolean => (v | 0) === v && v <= SMALL && v >= -SMALL;
const allSmall = (a: number, b: number, c: number, d: number, e: number, f: number): boolean =>
  small(a) && small(b) && small(c) && small(d) && small(e) && small(f);

// -- packing ------------------------------------------------------------------------------------

// The one pack or unpack under way: each shape slot's last whole number in the block (0 at its start).
let previous = new Int32Array(256);
let out = new Uint8Array(4096);

function startBlock(): void {
  if (slotCount > previous.length) previous = new Int32Array(2 * slotCount);
  else previous.fill(0, 0, slotCount);
}

/** Packs `count` coded details, staged one after another from 0, into bytes. */
function pack(staged: Int32Array, count: number, refs: readonly unknown[], dictionary: readonly unknown[]): PackedBlock {
  startBlock();
  const last = previous;
  let o = out;
  let p = 0;
  let at = 0;
  for (let r = 0; r < count; r++) {
    const shape = shapes[staged[at]];
    const width = shape.width;
    if (p + 5 * (width + 1) > o.length) {
      const grown = new Uint8Array(2 * o.length + 5 * (width + 1));
      grown.set(o.subarray(0, p));
      out = o = grown;
    }
    let code = shape.id;
    while (code >= 0x80) {
      o[p++] = (code & 0x7f) | 0x80;
      code >>>= 7;
    }
    o[p++] = code;
    const base = shape.slotBase;
    const end = at + 1 + width;
    for (let i = at + 1, slot = base; i < end; i++, slot++) {
      code = staged[i];
      if ((code & 1) === 0) {
        // A whole number: its difference from the slot's last one, zigzagged, still even.
        const z = code >>> 1;
        const v = (z >>> 1) ^ -(z & 1);
        const diff = v - last[slot];
        last[slot] = v;
        code = ((diff << 1) ^ (diff >> 31)) << 1;
      }
      while (code >= 0x80) {
        o[p++] = (code & 0x7f) | 0x80;
        code >>>= 7;
      }
      o[p++] = code;
    }
    at = end;
  }
  return Object.freeze({ bytes: o.slice(0, p), refs: Object.freeze(refs.slice()), dictionary });
}

/** A detail as a record, from its shape and its slots' values in `slots`. */
function recordOf(shape: Shape): DetailEvent {
  const values: Record<string, unknown> = {};
  const shapeKeys = shape.keys;
  for (let k = 0; k < shapeKeys.length; k++) values[shapeKeys[k]] = slots[2 + k];
  const slotOf = shape.subjects;
  const subjects: string[] = new Array(slotOf.length);
  for (let s = 0; s < slotOf.length; s++) subjects[s] = slots[slotOf[s]] as string;
  // The same fields in the same order as the engine's records have always had.
  return Object.freeze({
    kind: shape.kind,
    subjects,
    values,
    lines: shape.lines,
    t: slots[0] as number,
    afterEvent: slots[1] as number,
  }) as unknown as DetailEvent;
}

function unpack(block: PackedBlock): DetailEvent[] {
  startBlock();
  const bytes = block.bytes;
  const { refs, dictionary } = block;
  const records: DetailEvent[] = new Array(DETAIL_BLOCK);
  let p = 0;
  for (let r = 0; r < DETAIL_BLOCK; r++) {
    let shape: Shape | null = null;
    for (let i = -1; shape === null || i < shape.width; i++) {
      let code = 0;
      let shift = 0;
      let b: number;
      do {
        b = bytes[p++];
        code |= (b & 0x7f) << shift;
        shift += 7;
      } while (b & 0x80);
      if (shape === null) {
        shape = shapes[code];
        continue;
      }
      if ((code & 1) === 0) {
        const z = code >>> 1;
        const slot = shape.slotBase + i;
        const v = previous[slot] + ((z >>> 1) ^ -(z & 1));
        previous[slot] = v;
        slots[i] = v;
      } else slots[i] = valueOf(code, dictionary, refs);
    }
    records[r] = recordOf(shape as Shape);
  }
  return records;
}

// The last block unpacked, whichever run it belongs to (blocks never change, so this is only a cache).
let cachedBlock: PackedBlock | null = null;
let cachedRecords: DetailEvent[] = [];

function unpacked(block: PackedBlock): DetailEvent[] {
  if (block !== cachedBlock) {
    cachedRecords = unpack(block);
    cachedBlock = block;
  }
  return cachedRecords;
}

/** Every run's dictionary starts with the commit rules, so the hot writer codes a rule without looking it up. */
const COMMIT_RULES: readonly CommitRule[] = ['majority', 'earlier-term-by-counting', 'leader-commit'];
const FIRST_DICTIONARY: readonly unknown[] = Object.freeze([...COMMIT_RULES]);
const ruleCode = (rule: CommitRule): number => (rule === 'majority' ? 9 : rule === 'earlier-term-by-counting' ? 13 : 17);

/**
 * The detail events of one run, oldest first: the newest block as codes, the rest packed (see
 * above). Indexes passed to `at` and `slice` count kept details (0 is the oldest kept); `base`,
 * `count` and `since` count all the run has recorded, trimmed ones included.
 */
export class DetailLog {
  /**
   * Keep only about this many of the newest details (at least this many, at most twice): the page's
   * viewed run shows only the newest. Infinity (the CLI) keeps all.
   */
  limit = Infinity;
  /** The run's index of the first kept detail: those before it were trimmed. */
  base = 0;
  private blocks: PackedBlock[] = [];
  /** The run's index of the first detail of blocks[0] (of the first staged one when there is no block). */
  private packedFrom = 0;
  /** The newest details, fewer than a block, as codes: each its shape's id, then a code per slot. */
  private staged = new Int32Array(1024);
  private stagedEnd = 0;
  /** Where each staged detail starts in `staged`. */
  private readonly starts = new Int32Array(DETAIL_BLOCK);
  private stagedCount = 0;
  /** The objects the staged codes name. */
  private stagedRefs: unknown[] = [];
  /** Every id (subject) the run's details named, in order of first use; replaced, never changed. */
  private dictionary: readonly unknown[] = FIRST_DICTIONARY;
  private readonly dictionaryIndex = new Map<unknown, number>(COMMIT_RULES.map((rule, i) => [rule, i]));

  /** How many details the run has recorded, trimmed ones included. */
  get count(): number {
    return this.packedFrom + this.blocks.length * DETAIL_BLOCK + this.stagedCount;
  }

  /** How many are kept. */
  get length(): number {
    return this.count - this.base;
  }

  /** Records a detail at simulated time `t`, after the run's first `afterEvent` chapter events. */
  push(body: DetailBody, t: number, afterEvent: number): void {
    const at = this.begin(16);
    this.end(this.writeGeneric(body, t, afterEvent, at));
  }

  // The hot kinds without a body (hotDetails.ts): the same records as their bodies give.

  leaderAppended(node: string, term: number, index: number, command: Command, noop: boolean, t: number, afterEvent: number): void {
    if (!allSmall(term, index, t, afterEvent, 0, 0) || t < 0)
      return this.push(leaderAppendBody(node, term, index, command, noop), t, afterEvent);
    const at = this.begin(7);
    const a = this.staged;
    a[at] = noop ? LEADER_NOOP : LEADER_APPEND;
    a[at + 1] = intCode(t);
    a[at + 2] = intCode(afterEvent);
    a[at + 3] = this.idCode(node);
    a[at + 4] = intCode(term);
    a[at + 5] = intCode(index);
    a[at + 6] = this.refCode(command);
    this.end(at + 7);
  }

  appendAccepted(node: string, leader: string, term: number, from: number, to: number, added: number, t: number, afterEvent: number): void {
    if (!allSmall(term, from, to, added, t, afterEvent) || t < 0) {
      return this.push(appendAcceptedBody(node, leader, term, from, to, added), t, afterEvent);
    }
    const at = this.begin(9);
    const a = this.staged;
    a[at] = APPEND_ACCEPTED;
    a[at + 1] = intCode(t);
    a[at + 2] = intCode(afterEvent);
    a[at + 3] = this.idCode(node);
    a[at + 4] = this.idCode(leader);
    a[at + 5] = intCode(term);
    a[at + 6] = intCode(from);
    a[at + 7] = intCode(to);
    a[at + 8] = intCode(added);
    this.end(at + 9);
  }

  commitAdvanced(
    node: string,
    from: number,
    to: number,
    term: number,
    rule: CommitRule,
    replicas: number | null,
    majority: number | null,
    leader: string | null,
    leaderCommit: number | null,
    memberCount: boolean,
    t: number,
    afterEvent: number,
  ): void {
    const follower = rule === 'leader-commit';
    if (
      !allSmall(from, to, term, t, afterEvent, replicas ?? 0) ||
      t < 0 ||
      !small(majority ?? 0) ||
      !small(leaderCommit ?? 0) ||
      follower !== (leader !== null) ||
      (follower && memberCount)
    ) {
      return this.push(
        commitAdvancedBody(node, from, to, term, rule, replicas, majority, leader, leaderCommit, memberCount),
        t,
        afterEvent,
      );
    }
    const at = this.begin(12);
    const a = this.staged;
    a[at] = follower ? COMMIT_BY_FOLLOWER : COMMIT_BY_LEADER[(rule === 'majority' ? 0 : 2) + (memberCount ? 1 : 0)];
    a[at + 1] = intCode(t);
    a[at + 2] = intCode(afterEvent);
    a[at + 3] = this.idCode(node);
    a[at + 4] = intCode(from);
    a[at + 5] = intCode(to);
    a[at + 6] = intCode(term);
    a[at + 7] = ruleCode(rule);
    a[at + 8] = replicas === null ? NULL_CODE : intCode(replicas);
    a[at + 9] = majority === null ? NULL_CODE : intCode(majority);
    a[at + 10] = leader === null ? NULL_CODE : this.idCode(leader);
    a[at + 11] = leaderCommit === null ? NULL_CODE : intCode(leaderCommit);
    this.end(at + 12);
  }

  applied(node: string, index: number, term: number, command: Command, result: ApplyResult | null, t: number, afterEvent: number): void {
    if (!allSmall(index, term, t, afterEvent, 0, 0) || t < 0)
      return this.push(appliedBody(node, index, term, command, result), t, afterEvent);
    const at = this.begin(8);
    const a = this.staged;
    a[at] = APPLIED;
    a[at + 1] = intCode(t);
    a[at + 2] = intCode(afterEvent);
    a[at + 3] = this.idCode(node);
    a[at + 4] = intCode(index);
    a[at + 5] = intCode(term);
    a[at + 6] = this.refCode(command);
    a[at + 7] = this.refCode(result);
    this.end(at + 8);
  }

  /** Where the next detail's codes go (room for `size` of them); the staged block is packed first when full. */
  private begin(size: number): number {
    if (this.stagedCount === DETAIL_BLOCK) this.packStaged();
    const at = this.stagedEnd;
    if (at + size > this.staged.length) this.grow(size);
    return at;
  }

  /** The detail begun at the staged end is coded up to `end`. */
  private end(end: number): void {
    this.starts[this.stagedCount++] = this.stagedEnd;
    this.stagedEnd = end;
    if (this.count - this.base > 2 * this.limit) this.trim();
  }

  private grow(atLeast: number): void {
    const grown = new Int32Array(Math.max(2 * this.staged.length, this.stagedEnd + atLeast));
    grown.set(this.staged.subarray(0, this.stagedEnd));
    this.staged = grown;
  }

  /** Any detail: its shape found by reading its keys, each slot coded by what it holds. */
  private writeGeneric(body: DetailBody, t: number, afterEvent: number, at: number): number {
    const shape = shapeOf(body, t, afterEvent);
    const width = shape.width;
    if (at + 1 + width > this.staged.length) this.grow(1 + width);
    for (const subject of body.subjects) this.idCode(subject);
    const a = this.staged;
    a[at] = shape.id;
    for (let i = 0; i < width; i++) {
      const v = slots[i];
      a[at + 1 + i] = isSmallWhole(v) ? intCode(v) : typeof v === 'string' ? this.stringCode(v) : this.refCode(v);
    }
    return at + 1 + width;
  }

  /** An id's code, adding it to the dictionary the first time. */
  private idCode(id: unknown): number {
    const i = this.dictionaryIndex.get(id);
    if (i !== undefined) return 4 * i + 9;
    const n = this.dictionary.length;
    this.dictionary = Object.freeze([...this.dictionary, id]);
    this.dictionaryIndex.set(id, n);
    return 4 * n + 9;
  }

  /** A string's code: its dictionary entry when it is an id, else an object of the block. */
  private stringCode(v: string): number {
    const i = this.dictionaryIndex.get(v);
    return i !== undefined ? 4 * i + 9 : this.refCode(v);
  }

  private refCode(v: unknown): number {
    if (v === null) return NULL_CODE;
    if (v === undefined) return UNDEFINED_CODE;
    if (v === false) return FALSE_CODE;
    if (v === true) return TRUE_CODE;
    return 4 * (this.stagedRefs.push(v) - 1) + 11;
  }

  /** The staged block is full: pack it (or, when every detail in it was trimmed, let it go). */
  private packStaged(): void {
    if (this.blocks.length === 0 && this.packedFrom + DETAIL_BLOCK <= this.base) this.packedFrom += DETAIL_BLOCK;
    else this.blocks.push(pack(this.staged, DETAIL_BLOCK, this.stagedRefs, this.dictionary));
    this.stagedEnd = 0;
    this.stagedCount = 0;
    this.stagedRefs = [];
  }

  /** Trimming to the limit each time the kept details reach twice it keeps the cost per detail constant. */
  private trim(): void {
    const base = this.count - this.limit;
    this.base = base;
    let drop = 0;
    while (drop < this.blocks.length && this.packedFrom + (drop + 1) * DETAIL_BLOCK <= base) drop++;
    if (drop > 0) {
      this.blocks.splice(0, drop);
      this.packedFrom += drop * DETAIL_BLOCK;
    }
  }

  /** The staged detail `r` as a record. */
  private stagedRecord(r: number): DetailEvent {
    const a = this.staged;
    const at = this.starts[r];
    const shape = shapes[a[at]];
    for (let i = 0; i < shape.width; i++) slots[i] = valueOf(a[at + 1 + i], this.dictionary, this.stagedRefs);
    return recordOf(shape);
  }

  /** The kept detail `i` (0 is the oldest kept). */
  at(i: number): DetailEvent {
    if (!(i >= 0 && i < this.length)) throw new RangeError(`There is no kept detail ${i}; ${this.length} are kept.`);
    const r = this.base + i - this.packedFrom;
    const packed = this.blocks.length * DETAIL_BLOCK;
    if (r >= packed) return this.stagedRecord(r - packed);
    const b = (r / DETAIL_BLOCK) | 0;
    return unpacked(this.blocks[b])[r - b * DETAIL_BLOCK];
  }

  /** The kept details from `from` up to (not including) `to`, as records. */
  slice(from = 0, to = this.length): DetailEvent[] {
    const start = Math.max(0, from);
    const end = Math.min(this.length, to);
    const result: DetailEvent[] = [];
    const packed = this.blocks.length * DETAIL_BLOCK;
    let r = this.base + start - this.packedFrom;
    const rEnd = this.base + end - this.packedFrom;
    while (r < rEnd && r < packed) {
      const b = (r / DETAIL_BLOCK) | 0;
      const records = unpacked(this.blocks[b]);
      const stop = Math.min(rEnd, (b + 1) * DETAIL_BLOCK);
      for (; r < stop; r++) result.push(records[r - b * DETAIL_BLOCK]);
    }
    for (; r < rEnd; r++) result.push(this.stagedRecord(r - packed));
    return result;
  }

  /** The details from the run's index `from` on (trimmed ones are gone). */
  since(from: number): DetailEvent[] {
    return this.slice(from - this.base);
  }

  toArray(): DetailEvent[] {
    return this.slice();
  }
}
