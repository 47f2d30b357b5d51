/**
 * A run's detail events, kept compactly (issue 24, item 7). Recording each detail as the object
 * graph the engine builds (the record, its `values`, `subjects` and `lines`: four objects, about
 * 250 bytes) made a long run's heap 17 times larger than without details, and its collector a
 * large part of its time, for records read once at the end (the CLI) or only in their newest
 * thousand (the page).
 *
 * So a detail is written as bytes the moment it is recorded. It has a shape (its kind, its value
 * keys in order, its pseudocode lines, which values its subjects repeat), and each slot of its
 * shape (time, event position, each value, a subject that repeats no value) becomes one code, in
 * 7-bit groups: a small whole number as itself, or as its difference from its block's first time,
 * first event position or first log index, so most take one byte; null, undefined, true and false
 * as constants; an actor id (anything that is a subject) as its place in the run's dictionary;
 * anything else (a command, a result, a sentence) as its place in the block's table, which keeps
 * the very object the engine made. About ten bytes a detail, in blocks of DETAIL_BLOCK.
 *
 * The four kinds every entry produces on every server (leader-append, append-accepted,
 * commit-advanced, applied) arrive without a body at all (hotDetails.ts): their writers below code
 * the values they are handed, with the shapes of the bodies hotDetails.ts would build, and their
 * records' values are built back by hotDetails.ts's own functions. Every other kind arrives as a
 * body and goes through the generic path, which reads its keys.
 *
 * Reading gives back records equal to the ones recorded, field for field and in the same key order
 * (so `--json`, `--verbose`, the page and every export see exactly the same details). A detail
 * decodes on its own from where it starts; the newest block's records are kept once read, and the
 * last full block read stays unpacked, so reading in order makes each record once. Full blocks
 * and dictionaries are frozen: a checkpoint's copy of the run (deepClone) shares them.
 *
 * What it costs is measured in `npm run bench` (src/cli/benchDetails.ts): with details on, under
 * 2x the engine's time and heap without them, for the CLI and for the page.
 */
import type { DetailBody, DetailEvent, DetailKind } from './events';
import {
  appendAcceptedBody,
  appendAcceptedValues,
  appliedBody,
  appliedValues,
  commitAdvancedBody,
  commitAdvancedValues,
  leaderAppendBody,
  leaderAppendValues,
  type CommitRule,
} from './hotDetails';
import type { PseudocodeId } from './pseudocodeIds';
import type { ApplyResult, Command } from './types';

/** Details per block: few enough that reading one detail of a full block decodes little, enough that a block's own cost is small. */
export const DETAIL_BLOCK = 256;

/** What a whole number in a slot is coded relative to: nothing, or its block's first time, first event position or first log index. */
const ABSOLUTE = 0;
const FROM_TIME = 1;
const FROM_EVENT = 2;
const FROM_INDEX = 3;

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
  /** Per slot, what its whole numbers are coded relative to (ABSOLUTE … FROM_INDEX). */
  readonly bases: readonly number[];
  /**
   * For the hot kinds, their `values` from the slots, built by hotDetails.ts's own function: an
   * object literal, about twice as fast to make as adding the keys one by one (see recordOf).
   */
  readonly values: ValuesReader | null;
}

type ValuesReader = (slots: readonly unknown[]) => Record<string, unknown>;

/** What a block's whole numbers are coded relative to (ABSOLUTE … FROM_INDEX). */
type Bases = [absolute: number, time: number, event: number, index: number];

/** A full block of DETAIL_BLOCK details. Frozen and never changed. */
interface Block {
  readonly bytes: Uint8Array;
  /** The objects its codes name, in order of use. */
  readonly refs: readonly unknown[];
  /** The run's dictionary when it was full (every id its codes name). */
  readonly dictionary: readonly unknown[];
  readonly bases: Readonly<Bases>;
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

/**
 * The codes of the detail being recorded, in order (its shape's id, then one per slot), before
 * `write` puts them into bytes: the writers stay small enough for the compiler to inline.
 */
let codes = new Int32Array(32);

// -- shapes -------------------------------------------------------------------------------------
// Shared by every run of the process: a shape is a fact about the code that records details (a
// few dozen of them), and coded details name shapes by number.

const shapes: Shape[] = [];
const shapesByKind = new Map<string, Shape[]>();
const lastShapeOfKind = new Map<string, Shape>();
const NO_KEYS: readonly string[] = [];

// The working state of the one write or read under way (they never nest): the slots of the
// detail at hand and its value keys.
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
  if (shape === undefined) shape = addShape(body, n, NO_KEYS);
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

/** A new shape for the detail read into `slots`; values under `indexKeys` are coded from the block's first log index. */
function addShape(body: DetailBody, n: number, indexKeys: readonly string[], values: ValuesReader | null = null): Shape {
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
  const valueKeys = keys.slice(0, n);
  const bases = Array.from({ length: width }, (_, slot) =>
    slot === 0 ? FROM_TIME : slot === 1 ? FROM_EVENT : slot < valuesEnd && indexKeys.includes(valueKeys[slot - 2]) ? FROM_INDEX : ABSOLUTE,
  );
  const shape: Shape = Object.freeze({
    id: shapes.length,
    kind: body.kind,
    keys: Object.freeze(valueKeys),
    lines: Object.freeze([...body.lines]),
    subjects: Object.freeze(subjects),
    width,
    bases: Object.freeze(bases),
    values,
  });
  shapes.push(shape);
  let list = shapesByKind.get(body.kind);
  if (list === undefined) shapesByKind.set(body.kind, (list = []));
  list.push(shape);
  return shape;
}

// -- the hot kinds (hotDetails.ts) --------------------------------------------------------------
// Their shapes are read off the bodies hotDetails.ts builds (the writers below code exactly their
// slots, in order), before any run, so the generic path finds these same shapes for such a body.

const LOG_INDEXES: readonly string[] = ['index', 'from', 'to', 'leaderCommit'];
const SAMPLE = 'sample';

function hotShape(body: DetailBody, values: ValuesReader): number {
  slots[0] = 0;
  slots[1] = 0;
  let n = 0;
  for (const [key, value] of Object.entries(body.values)) {
    keys[n] = key;
    slots[2 + n++] = value;
  }
  return addShape(body, n, LOG_INDEXES, values).id;
}

// Slots 2 on are the values in their key order (the writers below put them there).
type S = readonly unknown[];
const leaderAppendRead = (s: S) => leaderAppendValues(s[2] as string, s[3] as number, s[4] as number, s[5] as Command);
const appendAcceptedRead = (s: S) =>
  appendAcceptedValues(s[2] as string, s[3] as string, s[4] as number, s[5] as number, s[6] as number, s[7] as number);
const commitAdvancedRead = (s: S) =>
  commitAdvancedValues(
    s[2] as string,
    s[3] as number,
    s[4] as number,
    s[5] as number,
    s[6] as CommitRule,
    s[7] as number | null,
    s[8] as number | null,
    s[9] as string | null,
    s[10] as number | null,
  );
const appliedRead = (s: S) => appliedValues(s[2] as string, s[3] as number, s[4] as number, s[5] as Command, s[6] as ApplyResult | null);

const LEADER_APPEND = hotShape(leaderAppendBody(SAMPLE, 1, 1, 'x', false), leaderAppendRead);
const LEADER_NOOP = hotShape(leaderAppendBody(SAMPLE, 1, 1, 'x', true), leaderAppendRead);
const APPEND_ACCEPTED = hotShape(appendAcceptedBody(SAMPLE, 'leader', 1, 1, 1, 1), appendAcceptedRead);
const COMMIT_BY_FOLLOWER = hotShape(
  commitAdvancedBody(SAMPLE, 0, 1, 1, 'leader-commit', null, null, 'leader', 1, false),
  commitAdvancedRead,
);
/** Indexed by (rule is 'majority' ? 0 : 2) + (memberCount ? 1 : 0). */
const COMMIT_BY_LEADER = [
  hotShape(commitAdvancedBody(SAMPLE, 0, 1, 1, 'majority', 1, 1, null, null, false), commitAdvancedRead),
  hotShape(commitAdvancedBody(SAMPLE, 0, 1, 1, 'majority', 1, 1, null, null, true), commitAdvancedRead),
  hotShape(commitAdvancedBody(SAMPLE, 0, 1, 1, 'earlier-term-by-counting', 1, 1, null, null, false), commitAdvancedRead),
  hotShape(commitAdvancedBody(SAMPLE, 0, 1, 1, 'earlier-term-by-counting', 1, 1, null, null, true), commitAdvancedRead),
];
const APPLIED = hotShape(appliedBody(SAMPLE, 1, 1, 'x', null), appliedRead);

/**
 * Whether a hot kind's number is one the codes hold as a number (else its writer takes the body's
 * path). These are terms, indexes, counts and times, made by adding and subtracting whole
 * numbers, which never gives -0, so the generic path's -0 test is left out.
 */
const small = (v: number): boolean => (v | 0) === v && v <= SMALL && v >= -SMALL;
const allSmall = (a: number, b: number, c: number, d: number, e: number, f: number): boolean =>
  small(a) && small(b) && small(c) && small(d) && small(e) && small(f);

/** Every run's dictionary starts with the commit rules, so the hot writer codes a rule without looking it up. */
const COMMIT_RULES: readonly CommitRule[] = ['majority', 'earlier-term-by-counting', 'leader-commit'];
const FIRST_DICTIONARY: readonly unknown[] = Object.freeze([...COMMIT_RULES]);
const ruleCode = (rule: CommitRule): number => (rule === 'majority' ? 9 : rule === 'earlier-term-by-counting' ? 13 : 17);

// -- reading ------------------------------------------------------------------------------------

function valueOf(code: number, dictionary: readonly unknown[], refs: readonly unknown[]): unknown {
  const z = code >>> 1;
  if (z >= 4) return z & 1 ? refs[(z - 5) >>> 1] : dictionary[(z - 4) >>> 1];
  return z === 0 ? null : z === 1 ? undefined : z === 3;
}

/** Where the detail after the one `decode` read starts. */
let next = 0;

/** Decodes the detail starting at byte `p` into a record, reading whole numbers relative to `bases`; sets `next`. */
function decode(
  bytes: Uint8Array,
  p: number,
  bases: Readonly<Bases>,
  dictionary: readonly unknown[],
  refs: readonly unknown[],
): DetailEvent {
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
    if (shape === null) shape = shapes[code];
    else if ((code & 1) === 0) {
      const z = code >>> 1;
      slots[i] = bases[shape.bases[i]] + ((z >>> 1) ^ -(z & 1));
    } else slots[i] = valueOf(code, dictionary, refs);
  }
  next = p;
  return recordOf(shape);
}

/** A detail as a record, from its shape and its slots' values in `slots`. */
function recordOf(shape: Shape): DetailEvent {
  let values: Record<string, unknown>;
  if (shape.values !== null) values = shape.values(slots);
  else {
    values = {};
    const shapeKeys = shape.keys;
    for (let k = 0; k < shapeKeys.length; k++) values[shapeKeys[k]] = slots[2 + k];
  }
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

function unpack(block: Block): DetailEvent[] {
  const records: DetailEvent[] = new Array(DETAIL_BLOCK);
  let p = 0;
  for (let r = 0; r < DETAIL_BLOCK; r++) {
    records[r] = decode(block.bytes, p, block.bases, block.dictionary, block.refs);
    p = next;
  }
  return records;
}

// The last full block read, whichever run it belongs to (blocks never change, so this is only a cache).
let cachedBlock: Block | null = null;
let cachedRecords: DetailEvent[] = [];

function unpacked(block: Block): DetailEvent[] {
  if (block !== cachedBlock) {
    cachedRecords = unpack(block);
    cachedBlock = block;
  }
  return cachedRecords;
}

/** The bases of a block before its first detail: the first of each kind seen sets it. */
const UNSET = -1 - SMALL;

/**
 * The detail events of one run, oldest first: full blocks and the newest one (see above). Indexes
 * passed to `at` and `slice` count kept details (0 is the oldest kept); `base`, `count` and
 * `since` count all the run has recorded, trimmed ones included.
 */
export class DetailLog {
  private keep = Infinity;
  /** The run's index of the first kept detail: those before it were trimmed. */
  base = 0;
  /** Trim when the count passes this: the base plus twice the limit. */
  private trimAfter = Infinity;
  private blocks: Block[] = [];
  /** The run's index of the first detail of blocks[0] (of the newest block's first when there is no full one). */
  private fullFrom = 0;
  /** The newest block, not yet full: its bytes, where each detail starts, and what its codes name. */
  private bytes = new Uint8Array(4096);
  private end = 0;
  private readonly starts = new Int32Array(DETAIL_BLOCK);
  private newest = 0;
  private refs: unknown[] = [];
  private bases: Bases = [0, UNSET, UNSET, UNSET];
  /** The newest block's details read so far, as records (by their place in the block). */
  private read: DetailEvent[] = [];
  /** Every id (subject) the run's details named, in order of first use; replaced, never changed. */
  private dictionary: readonly unknown[] = FIRST_DICTIONARY;
  private readonly dictionaryIndex = new Map<unknown, number>(COMMIT_RULES.map((rule, i) => [rule, i]));
  private recentId: unknown = COMMIT_RULES[0];
  private recentIdCode = 9;
  private otherId: unknown = COMMIT_RULES[0];
  private otherIdCode = 9;

  /**
   * Keep only about this many of the newest details (at least this many, at most twice): the page's
   * viewed run shows only the newest. Infinity (the CLI) keeps all.
   */
  get limit(): number {
    return this.keep;
  }

  set limit(limit: number) {
    this.keep = limit;
    this.trimAfter = this.base + 2 * limit;
    if (this.count > this.trimAfter) this.trim();
  }

  /** How many details the run has recorded, trimmed ones included. */
  get count(): number {
    return this.fullFrom + this.blocks.length * DETAIL_BLOCK + this.newest;
  }

  /** How many are kept. */
  get length(): number {
    return this.count - this.base;
  }

  /** Records a detail at simulated time `t`, after the run's first `afterEvent` chapter events. */
  push(body: DetailBody, t: number, afterEvent: number): void {
    // First, since closing a full block may decode its unread details through `slots`.
    this.begin(t, afterEvent);
    const shape = shapeOf(body, t, afterEvent);
    const width = shape.width;
    if (width >= codes.length) codes = new Int32Array(2 * width);
    for (const subject of body.subjects) this.idCode(subject);
    const c = codes;
    c[0] = shape.id;
    const slotBases = shape.bases;
    for (let i = 0; i < width; i++) {
      const v = slots[i];
      if (isSmallWhole(v)) c[i + 1] = intCode(v - this.relativeTo(slotBases[i], v));
      else c[i + 1] = typeof v === 'string' ? this.stringCode(v) : this.refCode(v);
    }
    this.write(width + 1);
  }

  // The hot kinds without a body (hotDetails.ts): the same codes as their bodies give.

  leaderAppended(node: string, term: number, index: number, command: Command, noop: boolean, t: number, afterEvent: number): void {
    if (!allSmall(term, index, t, afterEvent, 0, 0)) return this.push(leaderAppendBody(node, term, index, command, noop), t, afterEvent);
    this.begin(t, afterEvent);
    const c = codes;
    c[0] = noop ? LEADER_NOOP : LEADER_APPEND;
    c[1] = intCode(t - this.bases[FROM_TIME]);
    c[2] = intCode(afterEvent - this.bases[FROM_EVENT]);
    c[3] = this.idCode(node);
    c[4] = intCode(term);
    c[5] = intCode(index - this.indexBase(index));
    c[6] = this.refCode(command);
    this.write(7);
  }

  appendAccepted(node: string, leader: string, term: number, from: number, to: number, added: number, t: number, afterEvent: number): void {
    if (!allSmall(term, from, to, added, t, afterEvent)) {
      return this.push(appendAcceptedBody(node, leader, term, from, to, added), t, afterEvent);
    }
    this.begin(t, afterEvent);
    const c = codes;
    const base = this.indexBase(from);
    c[0] = APPEND_ACCEPTED;
    c[1] = intCode(t - this.bases[FROM_TIME]);
    c[2] = intCode(afterEvent - this.bases[FROM_EVENT]);
    c[3] = this.idCode(node);
    c[4] = this.idCode(leader);
    c[5] = intCode(term);
    c[6] = intCode(from - base);
    c[7] = intCode(to - base);
    c[8] = intCode(added);
    this.write(9);
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
    this.begin(t, afterEvent);
    const c = codes;
    const base = this.indexBase(from);
    c[0] = follower ? COMMIT_BY_FOLLOWER : COMMIT_BY_LEADER[(rule === 'majority' ? 0 : 2) + (memberCount ? 1 : 0)];
    c[1] = intCode(t - this.bases[FROM_TIME]);
    c[2] = intCode(afterEvent - this.bases[FROM_EVENT]);
    c[3] = this.idCode(node);
    c[4] = intCode(from - base);
    c[5] = intCode(to - base);
    c[6] = intCode(term);
    c[7] = ruleCode(rule);
    c[8] = replicas === null ? NULL_CODE : intCode(replicas);
    c[9] = majority === null ? NULL_CODE : intCode(majority);
    c[10] = leader === null ? NULL_CODE : this.idCode(leader);
    c[11] = leaderCommit === null ? NULL_CODE : intCode(leaderCommit - base);
    this.write(12);
  }

  applied(node: string, index: number, term: number, command: Command, result: ApplyResult | null, t: number, afterEvent: number): void {
    if (!allSmall(index, term, t, afterEvent, 0, 0)) return this.push(appliedBody(node, index, term, command, result), t, afterEvent);
    this.begin(t, afterEvent);
    const c = codes;
    c[0] = APPLIED;
    c[1] = intCode(t - this.bases[FROM_TIME]);
    c[2] = intCode(afterEvent - this.bases[FROM_EVENT]);
    c[3] = this.idCode(node);
    c[4] = intCode(index - this.indexBase(index));
    c[5] = intCode(term);
    c[6] = this.refCode(command);
    c[7] = this.refCode(result);
    this.write(8);
  }

  // The newest block's first log index: the first a detail of the block names.

  private indexBase(index: number): number {
    const bases = this.bases;
    if (bases[FROM_INDEX] === UNSET) bases[FROM_INDEX] = index;
    return bases[FROM_INDEX];
  }

  private relativeTo(kind: number, v: number): number {
    const bases = this.bases;
    if (bases[kind] === UNSET) bases[kind] = v;
    return bases[kind];
  }

  /** Before a detail's codes: a full newest block is closed, and a block's first detail sets its time and event-position bases. */
  private begin(t: number, afterEvent: number): void {
    if (this.newest === DETAIL_BLOCK) this.close();
    if (this.newest === 0) {
      // A base is a small whole number, so every difference from it fits a code.
      this.bases[FROM_TIME] = small(t) ? t : 0;
      this.bases[FROM_EVENT] = small(afterEvent) ? afterEvent : 0;
    }
  }

  /** Appends the detail whose `n` codes are in `codes` to the newest block, each in 7-bit groups, low first. */
  private write(n: number): void {
    const start = this.end;
    if (start + 5 * n > this.bytes.length) {
      const grown = new Uint8Array(Math.max(2 * this.bytes.length, start + 5 * n));
      grown.set(this.bytes.subarray(0, start));
      this.bytes = grown;
    }
    const o = this.bytes;
    const c = codes;
    let p = start;
    for (let i = 0; i < n; i++) {
      let code = c[i];
      while (code >= 0x80) {
        o[p++] = (code & 0x7f) | 0x80;
        code >>>= 7;
      }
      o[p++] = code;
    }
    this.starts[this.newest++] = start;
    this.end = p;
    if (this.count > this.trimAfter) this.trim();
  }

  /** An id's code, adding it to the dictionary the first time. */
  private idCode(id: unknown): number {
    // The last two ids coded come first: a follower's append, commit and applies name it and its leader.
    if (id === this.recentId) return this.recentIdCode;
    let code: number;
    if (id === this.otherId) code = this.otherIdCode;
    else {
      const i = this.dictionaryIndex.get(id);
      if (i !== undefined) code = 4 * i + 9;
      else {
        code = 4 * this.dictionary.length + 9;
        this.dictionaryIndex.set(id, this.dictionary.length);
        this.dictionary = Object.freeze([...this.dictionary, id]);
      }
    }
    this.otherId = this.recentId;
    this.otherIdCode = this.recentIdCode;
    this.recentId = id;
    this.recentIdCode = code;
    return code;
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
    return 4 * (this.refs.push(v) - 1) + 11;
  }

  /** The newest block is full: it becomes a full block (or, when every detail in it was trimmed, goes). */
  private close(): void {
    if (this.blocks.length === 0 && this.fullFrom + DETAIL_BLOCK <= this.base) this.fullFrom += DETAIL_BLOCK;
    else {
      const block: Block = Object.freeze({
        bytes: this.bytes.slice(0, this.end),
        refs: Object.freeze(this.refs),
        dictionary: this.dictionary,
        bases: Object.freeze(this.bases),
      });
      this.blocks.push(block);
      const read = this.read;
      if (read.length > 0) {
        // Someone reads this run as it goes (the page, an experiment): the rest of the block will be
        // read soon, so it is decoded now and the block is never unpacked.
        for (let r = 0; r < DETAIL_BLOCK; r++) if (read[r] === undefined) read[r] = this.newestRecord(r);
        cachedBlock = block;
        cachedRecords = read;
      }
    }
    this.read = [];
    this.end = 0;
    this.newest = 0;
    this.refs = [];
    this.bases = [0, UNSET, UNSET, UNSET];
  }

  /** Trimming to the limit each time the kept details reach twice it keeps the cost per detail constant. */
  private trim(): void {
    const base = this.count - this.keep;
    this.base = base;
    this.trimAfter = base + 2 * this.keep;
    let drop = 0;
    while (drop < this.blocks.length && this.fullFrom + (drop + 1) * DETAIL_BLOCK <= base) drop++;
    if (drop > 0) {
      this.blocks.splice(0, drop);
      this.fullFrom += drop * DETAIL_BLOCK;
    }
  }

  /** The newest block's detail `r` as a record. */
  private newestRecord(r: number): DetailEvent {
    const known = this.read[r];
    if (known !== undefined) return known;
    return (this.read[r] = decode(this.bytes, this.starts[r], this.bases, this.dictionary, this.refs));
  }

  /** The kept detail `i` (0 is the oldest kept). */
  at(i: number): DetailEvent {
    if (!(i >= 0 && i < this.length)) throw new RangeError(`There is no kept detail ${i}; ${this.length} are kept.`);
    const r = this.base + i - this.fullFrom;
    const full = this.blocks.length * DETAIL_BLOCK;
    if (r >= full) return this.newestRecord(r - full);
    const b = (r / DETAIL_BLOCK) | 0;
    return unpacked(this.blocks[b])[r - b * DETAIL_BLOCK];
  }

  /** The kept details from `from` up to (not including) `to`, as records. */
  slice(from = 0, to = this.length): DetailEvent[] {
    const start = Math.max(0, from);
    const end = Math.min(this.length, to);
    const result: DetailEvent[] = [];
    const full = this.blocks.length * DETAIL_BLOCK;
    let r = this.base + start - this.fullFrom;
    const rEnd = this.base + end - this.fullFrom;
    while (r < rEnd && r < full) {
      const b = (r / DETAIL_BLOCK) | 0;
      const records = unpacked(this.blocks[b]);
      const stop = Math.min(rEnd, (b + 1) * DETAIL_BLOCK);
      for (; r < stop; r++) result.push(records[r - b * DETAIL_BLOCK]);
    }
    for (; r < rEnd; r++) result.push(this.newestRecord(r - full));
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
