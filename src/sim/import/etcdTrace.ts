/**
 * etcd raft's state trace (formats.md §4): one JSON object per line, the part that matters in
 * its `event` field (`name`, `nid`, `state` {term, vote, commit}, `role`, `log`, `conf`, and for
 * message events `msg`). Read into events per node, messages matched from each send to its
 * receive (same type/from/to/term/index, in order per pair), and the Raft invariants a real run
 * must pass checked over the whole trace:
 * - at most one leader per term (§5.2, Election Safety);
 * - a node's term never decreases (Figure 2: currentTerm only grows);
 * - a node's commit index never decreases (§5.3: committed entries stay committed);
 * - a node votes at most once per term (Figure 2, RequestVote: votedFor);
 * - a leader's commit index only covers entries a quorum of its configuration's voters acknowledged
 *   (§5.3-5.4; from the MsgAppResp indexes it received, the leader counting its own log; in a
 *   joint configuration, a quorum of each half, §6).
 */
import type { Role } from '../model/types';
import { ImportError, type Skipped } from './history';
import { stampMs } from './jepsenLog';

export interface RaftTraceMessage {
  readonly type: string;
  readonly term: number;
  readonly from: string;
  readonly to: string;
  readonly entries: number;
  readonly logTerm: number;
  readonly index: number;
  readonly commit: number;
  readonly reject: boolean;
}

export interface RaftEvent {
  readonly line: number;
  /** ms from the trace's first event (from `ts`), or the event's position when the trace has no times. */
  readonly ms: number;
  readonly name: string;
  /** The node's lane id (`n2` for etcd's nid "2"). */
  readonly node: string;
  readonly term: number;
  readonly vote: string | null;
  readonly commit: number;
  readonly role: Role;
  /** etcd's own role name (StatePreCandidate stays visible in labels). */
  readonly roleName: string;
  readonly log: number;
  readonly conf: readonly [readonly string[], readonly string[]];
  readonly msg: RaftTraceMessage | null;
  /** ChangeConf / ApplyConfChange: what changed, in words. */
  readonly confText: string | null;
}

export interface MatchedMessage {
  readonly id: number;
  readonly msg: RaftTraceMessage;
  readonly sentAt: number;
  readonly sendLine: number;
  /** Its receive, or null: sent and never received in the trace (drawn as dropped). */
  readonly receivedAt: number | null;
  readonly receiveLine: number | null;
}

export const RAFT_INVARIANTS = [
  'one-leader-per-term',
  'term-never-decreases',
  'commit-never-decreases',
  'one-vote-per-term',
  'commit-needs-quorum',
] as const;
export type RaftInvariant = (typeof RAFT_INVARIANTS)[number];

export const RAFT_INVARIANT_TITLES: Readonly<Record<RaftInvariant, string>> = {
  'one-leader-per-term': 'At most one leader per term (§5.2)',
  'term-never-decreases': "A node's term never decreases (Figure 2)",
  'commit-never-decreases': "A node's commit index never decreases (§5.3)",
  'one-vote-per-term': 'A node votes at most once per term (Figure 2)',
  'commit-needs-quorum': 'A leader commits only what a quorum acknowledged (§5.3, §5.4)',
};

export interface TraceViolation {
  readonly invariant: RaftInvariant;
  readonly ms: number;
  readonly line: number;
  readonly node: string;
  /** The Why sentence, with the values that broke it and the rule it breaks. */
  readonly sentence: string;
}

export interface RaftMark {
  readonly node: string;
  readonly ms: number;
  readonly line: number;
  readonly kind: 'commit' | 'conf';
  readonly text: string;
}

export interface EtcdTrace {
  readonly kind: 'raft-trace';
  readonly nodes: readonly string[];
  readonly events: readonly RaftEvent[];
  readonly messages: readonly MatchedMessage[];
  /** Receives with no send in the trace (a node whose sends were not traced). */
  readonly unmatchedReceives: number;
  /** Messages a node sent itself (a leader's own MsgAppResp): matched, counted, not drawn. */
  readonly selfMessages: number;
  readonly marks: readonly RaftMark[];
  readonly violations: readonly TraceViolation[];
  readonly skipped: Skipped;
  readonly timed: boolean;
  readonly endMs: number;
}

const ROLES: Readonly<Record<string, Role>> = {
  StateFollower: 'follower',
  StateCandidate: 'candidate',
  StatePreCandidate: 'candidate',
  StateLeader: 'leader',
};

/** `n2` for etcd's "2"; other ids as they are. */
export const laneOfNid = (nid: string) => (/^\d+$/.test(nid) ? `n${nid}` : nid);

function num(v: unknown, what: string, line: number): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  throw new ImportError(
    line,
    `line ${line}: expected ${what} to be a number, found ${v === undefined ? 'nothing' : JSON.stringify(v).slice(0, 30)}.`,
  );
}

function str(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return null;
}

function readMessage(m: unknown, line: number): RaftTraceMessage {
  const r = m as Record<string, unknown>;
  const type = str(r.type);
  const from = str(r.from);
  const to = str(r.to);
  if (type === null || from === null || to === null)
    throw new ImportError(line, `line ${line}: expected the event's "msg" to carry "type", "from" and "to".`);
  return {
    type,
    term: num(r.term ?? 0, 'msg.term', line),
    from: laneOfNid(from),
    to: laneOfNid(to),
    entries: num(r.entries ?? 0, 'msg.entries', line),
    logTerm: num(r.logTerm ?? 0, 'msg.logTerm', line),
    index: num(r.index ?? 0, 'msg.index', line),
    commit: num(r.commit ?? 0, 'msg.commit', line),
    reject: r.reject === true,
  };
}

function confText(name: string, ev: Record<string, unknown>): string | null {
  if (name !== 'ChangeConf' && name !== 'ApplyConfChange') return null;
  const cc = ((ev.prop as Record<string, unknown> | undefined)?.cc ?? ev.cc) as Record<string, unknown> | undefined;
  const changes = Array.isArray(cc?.changes) ? (cc.changes as Record<string, unknown>[]) : [];
  const newconf = Array.isArray(cc?.newconf) ? (cc.newconf as unknown[]).map(String).map(laneOfNid) : [];
  if (name === 'ChangeConf' && changes.length > 0) {
    return 'propose ' + changes.map((c) => `${String(c.action ?? 'change')} ${laneOfNid(String(c.nid ?? '?'))}`).join(', ');
  }
  return newconf.length > 0
    ? `configuration now ${newconf.join(', ')}`
    : name === 'ChangeConf'
      ? 'configuration change proposed'
      : 'configuration change applied';
}

/** Parses the NDJSON trace; throws ImportError naming a broken line. */
export function readEtcdTrace(text: string): EtcdTrace {
  const lines = text.split(/\r?\n/);
  const reasons: Record<string, number> = {};
  let skippedCount = 0;
  const skip = (why: string) => {
    skippedCount++;
    reasons[why] = (reasons[why] ?? 0) + 1;
  };
  const raw: { line: number; ts: number | null; ev: Record<string, unknown> }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    const t = lines[i].trim();
    if (t === '') continue;
    if (!t.startsWith('{')) {
      skip('not JSON (other log output)');
      continue;
    }
    let obj: Record<string, unknown>;
    try {
      obj = JSON.parse(t) as Record<string, unknown>;
    } catch (error) {
      throw new ImportError(
        line,
        `line ${line}: expected one JSON object per line (etcd raft's state trace); this one does not parse (${error instanceof Error ? error.message : String(error)}).`,
      );
    }
    const ev = (obj.event ?? (typeof obj.name === 'string' && 'nid' in obj ? obj : undefined)) as Record<string, unknown> | undefined;
    if (ev === undefined || typeof ev !== 'object' || ev === null) {
      skip('a log line without a trace event');
      continue;
    }
    const ts =
      typeof obj.ts === 'number'
        ? obj.ts * 1000
        : typeof obj.ts === 'string'
          ? (stampMs(obj.ts) ?? (Number.isFinite(Number(obj.ts)) ? Number(obj.ts) * 1000 : null))
          : null;
    raw.push({ line, ts, ev });
  }
  if (raw.length === 0)
    throw new ImportError(0, 'No line of the file is an etcd raft trace event (expected one JSON object per line with an "event" field).');
  const timed = raw.every((r) => r.ts !== null);
  // A loop, not Math.min(...): a real trace has millions of lines, more arguments than a call takes.
  const t0 = timed ? raw.reduce((m, r) => Math.min(m, r.ts as number), Infinity) : 0;

  const events: RaftEvent[] = [];
  for (const [i, { line, ts, ev }] of raw.entries()) {
    const name = str(ev.name);
    const nid = str(ev.nid);
    if (name === null)
      throw new ImportError(line, `line ${line}: expected the trace event to have a "name" (BecomeLeader, SendAppendEntriesRequest, …).`);
    if (nid === null) throw new ImportError(line, `line ${line}: expected the trace event to have "nid", the node that logged it.`);
    const state = (ev.state ?? {}) as Record<string, unknown>;
    const roleName = str(ev.role) ?? '';
    const role = ROLES[roleName];
    if (role === undefined) {
      throw new ImportError(
        line,
        `line ${line}: expected "role" to be StateFollower, StateCandidate, StatePreCandidate or StateLeader, found ${JSON.stringify(ev.role ?? null)}.`,
      );
    }
    const conf = Array.isArray(ev.conf) ? ev.conf : [[], []];
    const voters = (x: unknown) => (Array.isArray(x) ? x.map(String).map(laneOfNid) : []);
    const vote = str(state.vote);
    events.push({
      line,
      ms: timed ? (ts as number) - t0 : i,
      name,
      node: laneOfNid(nid),
      term: num(state.term ?? 0, 'state.term', line),
      vote: vote === null || vote === '0' || vote === '' ? null : laneOfNid(vote),
      commit: num(state.commit ?? 0, 'state.commit', line),
      role,
      roleName,
      log: num(ev.log ?? 0, 'log', line),
      conf: [voters(conf[0]), voters(conf[1])],
      msg: ev.msg !== undefined && ev.msg !== null ? readMessage(ev.msg, line) : null,
      confText: confText(name, ev),
    });
  }
  const nodes = [...new Set(events.map((e) => e.node))].sort((a, b) => {
    const na = Number(a.replace(/^n/, ''));
    const nb = Number(b.replace(/^n/, ''));
    return Number.isFinite(na) && Number.isFinite(nb) ? na - nb : a < b ? -1 : a > b ? 1 : 0;
  });

  // Sends matched to receives, in order per (type, from, to, term, index).
  const messages: MatchedMessage[] = [];
  const waiting = new Map<string, number[]>();
  let unmatchedReceives = 0;
  let selfMessages = 0;
  const keyOf = (m: RaftTraceMessage) => `${m.type}|${m.from}|${m.to}|${m.term}|${m.index}`;
  for (const e of events) {
    if (e.msg === null) continue;
    const k = keyOf(e.msg);
    if (e.name.startsWith('Send')) {
      const id = messages.length;
      messages.push({ id, msg: e.msg, sentAt: e.ms, sendLine: e.line, receivedAt: null, receiveLine: null });
      let q = waiting.get(k);
      if (!q) waiting.set(k, (q = []));
      q.push(id);
      if (e.msg.from === e.msg.to) selfMessages++;
    } else if (e.name.startsWith('Receive')) {
      const q = waiting.get(k);
      const id = q?.shift();
      if (id === undefined) {
        unmatchedReceives++;
        continue;
      }
      messages[id] = { ...messages[id], receivedAt: e.ms, receiveLine: e.line };
    }
  }

  const marks: RaftMark[] = [];
  const violations = checkRaftInvariants(events, marks);
  return {
    kind: 'raft-trace',
    nodes,
    events,
    messages,
    unmatchedReceives,
    selfMessages,
    marks,
    violations,
    skipped: { count: skippedCount, reasons },
    timed,
    endMs: events.reduce((m, e) => Math.max(m, e.ms), 0),
  };
}

const and = (xs: readonly string[]) => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

/** The invariants over the whole trace (the file's order), and the commit and configuration marks. */
export function checkRaftInvariants(events: readonly RaftEvent[], marks: RaftMark[]): TraceViolation[] {
  const out: TraceViolation[] = [];
  const leaderOf = new Map<number, { node: string; line: number }>();
  const last = new Map<string, { term: number; commit: number; line: number; conf: string }>();
  const votes = new Map<string, { vote: string; line: number }>();
  // Per leader and term: the highest index each voter acknowledged (MsgAppResp, not rejected).
  const acks = new Map<string, Map<string, number>>();
  const reported = new Set<string>();
  const once = (key: string, v: TraceViolation) => {
    if (reported.has(key)) return;
    reported.add(key);
    out.push(v);
  };
  for (const e of events) {
    const prev = last.get(e.node);
    // Terms and commit indexes only grow on a node.
    if (prev !== undefined && e.term < prev.term) {
      once(`term ${e.node} ${e.line}`, {
        invariant: 'term-never-decreases',
        ms: e.ms,
        line: e.line,
        node: e.node,
        sentence: `${e.node}'s term went from ${prev.term} (line ${prev.line}) to ${e.term} at line ${e.line}: a node's term never decreases (Figure 2: currentTerm only grows, and a restart keeps it).`,
      });
    }
    if (prev !== undefined && e.commit < prev.commit) {
      once(`commit ${e.node} ${e.line}`, {
        invariant: 'commit-never-decreases',
        ms: e.ms,
        line: e.line,
        node: e.node,
        sentence: `${e.node}'s commit index went from ${prev.commit} (line ${prev.line}) to ${e.commit} at line ${e.line}: a node's commit index never decreases (§5.3: a committed entry stays committed).`,
      });
    }
    if (prev !== undefined && e.commit > prev.commit)
      marks.push({ node: e.node, ms: e.ms, line: e.line, kind: 'commit', text: `commit ${e.commit}` });
    const confKey = `${e.conf[0].join(',')}|${e.conf[1].join(',')}`;
    if (e.confText !== null) marks.push({ node: e.node, ms: e.ms, line: e.line, kind: 'conf', text: e.confText });
    else if (prev !== undefined && prev.conf !== confKey && e.conf[0].length > 0) {
      marks.push({
        node: e.node,
        ms: e.ms,
        line: e.line,
        kind: 'conf',
        text: `voters ${e.conf[0].join(', ')}${e.conf[1].length > 0 ? ` and ${e.conf[1].join(', ')} (joint)` : ''}`,
      });
    }

    // One vote per term.
    if (e.vote !== null) {
      const vk = `${e.node} ${e.term}`;
      const had = votes.get(vk);
      if (had === undefined) votes.set(vk, { vote: e.vote, line: e.line });
      else if (had.vote !== e.vote) {
        once(`vote ${vk}`, {
          invariant: 'one-vote-per-term',
          ms: e.ms,
          line: e.line,
          node: e.node,
          sentence: `${e.node} voted for ${had.vote} (line ${had.line}) and then for ${e.vote} (line ${e.line}) in term ${e.term}: a node votes at most once per term (Figure 2: votedFor is kept for the term).`,
        });
      }
    }

    // One leader per term.
    if (e.role === 'leader') {
      const had = leaderOf.get(e.term);
      if (had === undefined) leaderOf.set(e.term, { node: e.node, line: e.line });
      else if (had.node !== e.node) {
        once(`leader ${e.term}`, {
          invariant: 'one-leader-per-term',
          ms: e.ms,
          line: e.line,
          node: e.node,
          sentence: `${had.node} (from line ${had.line}) and ${e.node} (at line ${e.line}) both lead term ${e.term}: at most one leader per term (§5.2, Election Safety: a candidate needs a majority, and a voter votes once per term).`,
        });
      }
    }

    // A leader's acknowledgements, and what it may commit with them.
    if (
      e.msg !== null &&
      e.msg.type === 'MsgAppResp' &&
      !e.msg.reject &&
      e.msg.to === e.node &&
      (e.name.startsWith('Receive') || e.msg.from === e.node)
    ) {
      const ak = `${e.node} ${e.msg.term}`;
      let m = acks.get(ak);
      if (!m) acks.set(ak, (m = new Map()));
      m.set(e.msg.from, Math.max(m.get(e.msg.from) ?? 0, e.msg.index));
    }
    if (e.role === 'leader' && prev !== undefined && e.commit > prev.commit && prev.term === e.term) {
      const m = acks.get(`${e.node} ${e.term}`) ?? new Map<string, number>();
      const acked = (v: string) => (v === e.node ? Math.max(e.log, m.get(v) ?? 0) : (m.get(v) ?? 0)) >= e.commit;
      const halves = e.conf[1].length > 0 ? [e.conf[0], e.conf[1]] : [e.conf[0]];
      const short = halves.find((voters) => voters.length > 0 && voters.filter(acked).length * 2 <= voters.length);
      if (short !== undefined) {
        const holders = short.filter(acked);
        once(`quorum ${e.node} ${e.term} ${e.commit}`, {
          invariant: 'commit-needs-quorum',
          ms: e.ms,
          line: e.line,
          node: e.node,
          sentence: `${e.node} committed up to index ${e.commit} in term ${e.term} at line ${e.line}, but only ${holders.length === 0 ? 'no voter' : and(holders)} of ${and([...short])} had acknowledged it: a leader commits only entries a majority of voters hold (§5.3, §5.4).`,
        });
      }
    }
    last.set(e.node, { term: e.term, commit: e.commit, line: e.line, conf: confKey });
  }
  return out;
}
