/**
 * Histories shaped like the files engineers bring (issue 27's bench and tests), generated from a
 * seed: a CAS register run by 5 worker threads as Jepsen's etcd test ran it — reads, writes and
 * compare-and-sets of values 0..4, about one operation in five timing out (`:info`: it may or may
 * not take effect, and the thread continues as a new process number), some reads timing out
 * (`:fail :read :timed-out`). Each operation takes effect at one instant inside its window (a
 * timed-out one at some instant after its invocation, or never), so the history is linearizable;
 * `corrupt` then changes one completed read to a value the register did not hold anywhere in its
 * window and that no write could have given it: every write or cas that could set that value
 * was overwritten, before the read began, by a write that completed — so the history is not
 * linearizable, whatever the timed-out operations did.
 */
import { CPythonRandom } from '../model/prng';

export interface SyntheticOptions {
  readonly seed: number;
  /** Operations to invoke (default 82: about 165 lines, Porcupine's Jepsen etcd corpus). */
  readonly ops?: number;
  readonly threads?: number;
  /** Chance that an operation times out (default 0.2). */
  readonly infoRate?: number;
  /** Change one read so that it sees a value the register did not hold during it. */
  readonly corrupt?: boolean;
}

export interface SyntheticEvent {
  readonly process: number;
  readonly type: 'invoke' | 'ok' | 'fail' | 'info';
  readonly f: 'read' | 'write' | 'cas';
  /** EDN text of the value. */
  readonly value: string;
  /** ns from the start. */
  readonly time: number;
}

interface Pending {
  readonly process: number;
  readonly f: 'read' | 'write' | 'cas';
  readonly arg: number | readonly [number, number];
  readonly invokeAt: number;
  readonly effectAt: number;
  readonly endAt: number;
  /** How it ends: ok/fail decided at its effect; info never returns a result. */
  readonly timesOut: boolean;
}

/** The events of one run, in time order, and whether a read was corrupted (`corrupt` finds no such read in some runs). */
export function syntheticRun(options: SyntheticOptions): { events: SyntheticEvent[]; corrupted: boolean } {
  const rng = new CPythonRandom(options.seed);
  const total = options.ops ?? 82;
  const threads = options.threads ?? 5;
  const infoRate = options.infoRate ?? 0.2;
  // What each thread does next, run as a discrete-event simulation on a clock in µs.
  const process = Array.from({ length: threads }, (_, i) => i);
  const freeAt = Array.from({ length: threads }, () => rng.randint(0, 2000));
  const out: SyntheticEvent[] = [];
  const effects: { at: number; apply: () => void }[] = [];
  const ends: { at: number; emit: () => void }[] = [];
  let register: number | null = null;
  /** Every value the register held, with when it started holding it (for the corruption). */
  const held: { from: number; value: number | null }[] = [{ from: 0, value: null }];
  const reads: { index: number; invokeAt: number; endAt: number }[] = [];
  /** Every operation that may set a value (writes, and cas to it), for the corruption's proof. */
  const setters: { value: number; invokeAt: number; endAt: number; write: boolean; ok: () => boolean }[] = [];
  let invoked = 0;
  const fmt = (v: number | null | readonly [number, number]) =>
    v === null ? 'nil' : typeof v === 'number' ? String(v) : `[${v[0]} ${v[1]}]`;
  const setRegister = (v: number, at: number) => {
    register = v;
    held.push({ from: at, value: v });
  };
  while (invoked < total || effects.length > 0 || ends.length > 0) {
    // The next thing to happen: a thread invoking, an operation taking effect, or one returning.
    const t = invoked < total ? Math.min(...freeAt) : Infinity;
    const nextEffect = effects.reduce((m, e) => Math.min(m, e.at), Infinity);
    const nextEnd = ends.reduce((m, e) => Math.min(m, e.at), Infinity);
    const now = Math.min(t, nextEffect, nextEnd);
    if (now === nextEffect) {
      const i = effects.findIndex((e) => e.at === now);
      effects.splice(i, 1)[0].apply();
      continue;
    }
    if (now === nextEnd) {
      const i = ends.findIndex((e) => e.at === now);
      ends.splice(i, 1)[0].emit();
      continue;
    }
    const th = freeAt.indexOf(t);
    const roll = rng.random();
    const f = roll < 0.34 ? 'read' : roll < 0.67 ? 'write' : 'cas';
    const arg: number | readonly [number, number] = f === 'cas' ? [rng.randint(0, 4), rng.randint(0, 4)] : rng.randint(0, 4);
    const timesOut = rng.random() < infoRate;
    const duration = rng.randint(200, 4000);
    const p: Pending = {
      process: process[th],
      f,
      arg,
      invokeAt: t,
      effectAt: timesOut ? t + rng.randint(0, 3 * duration) : t + rng.randint(0, duration),
      endAt: t + duration,
      timesOut,
    };
    out.push({ process: p.process, type: 'invoke', f, value: f === 'read' ? 'nil' : fmt(arg), time: t * 1000 });
    invoked++;
    if (f !== 'read') {
      setters.push({
        value: f === 'write' ? (arg as number) : (arg as readonly [number, number])[1],
        invokeAt: t,
        // A timed-out one never returns: it may take effect at any time.
        endAt: timesOut ? Infinity : p.endAt,
        write: f === 'write',
        ok: () => !timesOut && (f === 'write' || result.type === 'ok'),
      });
    }
    // A timed-out write or cas may take effect (half of them do); a timed-out read never matters.
    let result: { type: 'ok' | 'fail'; value: string } = { type: 'ok', value: fmt(arg) };
    const takesEffect = !timesOut || rng.random() < 0.5;
    if (takesEffect && f !== 'read') {
      effects.push({
        at: p.effectAt,
        apply: () => {
          if (f === 'write') setRegister(arg as number, p.effectAt);
          else {
            const [from, to] = arg as readonly [number, number];
            if (register === from) setRegister(to, p.effectAt);
            else result = { type: 'fail', value: fmt(arg) };
          }
        },
      });
    } else if (f === 'read' && !timesOut) {
      effects.push({ at: p.effectAt, apply: () => (result = { type: 'ok', value: fmt(register) }) });
    }
    const index = out.length - 1;
    ends.push({
      at: p.endAt,
      emit: () => {
        if (p.timesOut) {
          // Jepsen's etcd client: a read that timed out failed; a write or cas is indeterminate.
          out.push({ process: p.process, type: f === 'read' ? 'fail' : 'info', f, value: ':timed-out', time: p.endAt * 1000 });
        } else {
          if (f === 'read') reads.push({ index: out.length, invokeAt: p.invokeAt, endAt: p.endAt });
          out.push({ process: p.process, type: result.type, f, value: result.value, time: p.endAt * 1000 });
        }
        void index;
      },
    });
    // The thread is busy until the operation returns; after a timeout it goes on as a new process.
    freeAt[th] = p.endAt + rng.randint(10, 400);
    if (timesOut && f !== 'read') process[th] += threads;
  }
  let corrupted = false;
  if (options.corrupt) {
    // A read that sees a value v no write can explain: some completed write of another value
    // began after every operation that could set v (and was invoked before the read returned)
    // had completed, and itself completed before the read began.
    const order = [...reads.keys()].sort((a, b) => Math.abs(a - reads.length / 2) - Math.abs(b - reads.length / 2));
    for (const ri of order) {
      const r = reads[ri];
      const barriers = setters.filter((b) => b.write && b.ok() && b.endAt < r.invokeAt);
      const v = [0, 1, 2, 3, 4].find((value) => {
        const sources = setters.filter((w) => w.value === value && w.invokeAt < r.endAt);
        return barriers.some((b) => b.value !== value && sources.every((w) => w.endAt < b.invokeAt));
      });
      if (v === undefined) continue;
      out[r.index] = { ...out[r.index], value: String(v) };
      corrupted = true;
      break;
    }
  }
  return { events: out, corrupted };
}

export function syntheticEvents(options: SyntheticOptions): SyntheticEvent[] {
  return syntheticRun(options).events;
}

/**
 * A corpus shaped like Porcupine's Jepsen etcd corpus: `count` line logs of about 165 lines,
 * the odd ones with a corrupted read (not linearizable by construction), the even ones as run.
 */
export function syntheticCorpus(count = 102, firstSeed = 1000): { text: string; linearizable: boolean; seed: number }[] {
  const out: { text: string; linearizable: boolean; seed: number }[] = [];
  let seed = firstSeed;
  while (out.length < count) {
    const corrupt = out.length % 2 === 1;
    const run = syntheticRun({ seed, corrupt });
    seed++;
    if (corrupt && !run.corrupted) continue;
    out.push({ text: logText(run.events), linearizable: !corrupt, seed: seed - 1 });
  }
  return out;
}

function logText(events: readonly SyntheticEvent[]): string {
  return events.map((e) => `INFO  jepsen.util - ${e.process}\t:${e.type}\t:${e.f}\t${e.value}`).join('\n') + '\n';
}

/** The run as Jepsen's etcd-era line log. */
export function syntheticLog(options: SyntheticOptions): string {
  return logText(syntheticEvents(options));
}

/** The run as a Jepsen EDN history (a vector of maps with :time). */
export function syntheticEdn(options: SyntheticOptions): string {
  const lines = syntheticEvents(options).map(
    (e, i) =>
      `{:index ${i}, :time ${e.time}, :type :${e.type}, :process ${e.process}, :f :${e.f}, :value ${e.value === ':timed-out' ? 'nil' : e.value}${e.value === ':timed-out' ? ', :error :timed-out' : ''}}`,
  );
  return '[' + lines.join('\n ') + ']\n';
}

export interface SyntheticTraceOptions {
  readonly seed: number;
  /** Node ids ("1", "2", "3"). */
  readonly nodes?: number;
  /** Rounds of replication after the first election. */
  readonly rounds?: number;
  /** Plant a second leader in the first term (a violation of §5.2's Election Safety). */
  readonly twoLeaders?: boolean;
}

/**
 * An etcd raft state trace (NDJSON, formats.md §4) of a small cluster: node 1 wins term 1, then
 * replicates one entry per round to every follower (heartbeats between), committing each once a
 * majority acknowledged; some messages are lost (sent, never received). `twoLeaders` makes the
 * last node also become leader of term 1 halfway, which the trace's invariants must catch.
 */
export function syntheticRaftTrace(options: SyntheticTraceOptions): string {
  const rng = new CPythonRandom(options.seed);
  const n = options.nodes ?? 3;
  const rounds = options.rounds ?? 12;
  const ids = Array.from({ length: n }, (_, i) => String(i + 1));
  const conf = [ids, []];
  const state = new Map(ids.map((id) => [id, { term: 0, vote: '0', commit: 0, role: 'StateFollower', log: 0 }]));
  const lines: string[] = [];
  let ts = 1000;
  const emit = (name: string, nid: string, msg?: Record<string, unknown>, prop?: Record<string, unknown>) => {
    const s = state.get(nid) as { term: number; vote: string; commit: number; role: string; log: number };
    ts += rng.randint(1, 4) / 1000;
    const event = {
      name,
      nid,
      state: { term: s.term, vote: s.vote, commit: s.commit },
      role: s.role,
      log: s.log,
      conf,
      ...(msg ? { msg: { entries: 0, logTerm: 0, index: 0, commit: 0, vote: '0', reject: false, rejectHint: 0, ...msg } } : {}),
      ...(prop ? { prop } : {}),
    };
    lines.push(JSON.stringify({ level: 'debug', ts: Number(ts.toFixed(6)), msg: 'trace', event }));
  };
  const set = (nid: string, fields: Partial<{ term: number; vote: string; commit: number; role: string; log: number }>) =>
    Object.assign(state.get(nid) as object, fields);
  for (const id of ids) emit('InitState', id);
  // The election of term 1.
  set('1', { term: 1, vote: '1', role: 'StateCandidate' });
  emit('BecomeCandidate', '1');
  for (const to of ids.slice(1)) {
    const m = { type: 'MsgVote', term: 1, from: '1', to };
    emit('SendRequestVoteRequest', '1', m);
    set(to, { term: 1, vote: '1' });
    emit('ReceiveRequestVoteRequest', to, m);
    const r = { type: 'MsgVoteResp', term: 1, from: to, to: '1' };
    emit('SendRequestVoteResponse', to, r);
    emit('ReceiveRequestVoteResponse', '1', r);
  }
  set('1', { role: 'StateLeader', log: 1 });
  emit('BecomeLeader', '1');
  const other = ids[n - 1];
  for (let round = 1; round <= rounds; round++) {
    if (options.twoLeaders && round === Math.ceil(rounds / 2)) {
      set(other, { role: 'StateLeader', vote: other });
      emit('BecomeLeader', other);
      set(other, { role: 'StateFollower', vote: '1' });
      emit('BecomeFollower', other);
    }
    const leader = state.get('1') as { log: number; commit: number };
    const index = leader.log;
    set('1', { log: index + 1 });
    emit('Replicate', '1');
    let acks = 1;
    for (const to of ids.slice(1)) {
      const app = { type: 'MsgApp', term: 1, from: '1', to, entries: 1, logTerm: 1, index, commit: leader.commit };
      emit('SendAppendEntriesRequest', '1', app, { match: index, next: index + 1 });
      // One message in eight is lost: sent, never received.
      if (rng.random() < 0.125) continue;
      set(to, { log: index + 1, commit: leader.commit });
      emit('ReceiveAppendEntriesRequest', to, app);
      const resp = { type: 'MsgAppResp', term: 1, from: to, to: '1', index: index + 1 };
      emit('SendAppendEntriesResponse', to, resp);
      if (rng.random() < 0.1) continue;
      emit('ReceiveAppendEntriesResponse', '1', resp);
      acks++;
    }
    if (acks * 2 > n) {
      set('1', { commit: index + 1 });
      emit('Commit', '1');
    }
    for (const to of ids.slice(1)) {
      const hb = { type: 'MsgHeartbeat', term: 1, from: '1', to, commit: (state.get('1') as { commit: number }).commit };
      emit('SendAppendEntriesRequest', '1', hb);
      set(to, { commit: Math.min((state.get(to) as { log: number }).log, hb.commit) });
      emit('ReceiveAppendEntriesRequest', to, hb);
      const hr = { type: 'MsgHeartbeatResp', term: 1, from: to, to: '1' };
      emit('SendAppendEntriesResponse', to, hr);
      emit('ReceiveAppendEntriesResponse', '1', hr);
    }
  }
  return lines.join('\n') + '\n';
}
