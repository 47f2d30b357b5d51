/**
 * The schedule language (DESIGN.md): actions separated by `;`, each `@<ms> <verb> <args>`,
 * applied after the simulation has advanced to that time, in the order written. One text format
 * for the CLI, presets, share links and recorded UI actions.
 */
import { MAX_MS, READ_MODES, featuresOf, isReadMode, lockOf, runsRaft, type ReadMode, MAX_NODES, type SimConfig } from './config';

export type ClientIntent =
  | { readonly op: 'acquire'; readonly key: string; readonly leaseMs: number }
  | { readonly op: 'write'; readonly key: string; readonly value: string }
  | { readonly op: 'release'; readonly key: string }
  | { readonly op: 'pause'; readonly ms: number }
  | { readonly op: 'crash' }
  | { readonly op: 'restart' }
  /** Reads feature (§6.4): store a value in the replicated key-value map. */
  | { readonly op: 'put'; readonly key: string; readonly value: string }
  /** Reads feature: read a key; `mode` null answers it in the run's read mode. */
  | { readonly op: 'get'; readonly key: string; readonly mode: ReadMode | null };

export type ActionBody =
  | { readonly verb: 'crash'; readonly node: string }
  | { readonly verb: 'restart'; readonly node: string }
  | { readonly verb: 'partition'; readonly groups: readonly (readonly string[])[] }
  | { readonly verb: 'heal' }
  | { readonly verb: 'submit'; readonly command: string; readonly target: string | null }
  | { readonly verb: 'client'; readonly client: string; readonly intent: ClientIntent }
  | { readonly verb: 'drift'; readonly node: string; readonly pct: number }
  | { readonly verb: 'loss'; readonly pct: number }
  /** Extra latency for every message (target null) or every message from or to one actor. */
  | { readonly verb: 'delay'; readonly target: string | null; readonly ms: number }
  /** Percent of messages delivered twice (the copy with its own latency). */
  | { readonly verb: 'duplicate'; readonly pct: number }
  /** Percent of messages held back by a random extra delay, so later ones overtake them. */
  | { readonly verb: 'reorder'; readonly pct: number }
  /** Faults stop: heal, no loss, delay, duplicates or reordering, every node and client up. */
  | { readonly verb: 'calm' }
  /** The node's election timer fires now (a teacher starts an election on cue, as RaftScope offers). */
  | { readonly verb: 'timeout'; readonly node: string }
  /** Leadership transfer (§3.10, feature transfer): the leader hands over to this node. */
  | { readonly verb: 'transfer'; readonly node: string }
  /** Membership changes (feature membership, §4.1): the leader adds a server (n1..n9) or removes one. */
  | { readonly verb: 'add'; readonly node: string }
  | { readonly verb: 'remove'; readonly node: string }
  /** Paxos runs: a client hands `value` to proposer `node` (single-decree; Multi-Paxos: that node campaigns for it). */
  | { readonly verb: 'propose'; readonly value: string; readonly node: string }
  /** Issue 28: every latency drawn is multiplied by `factor` (1 ends it), for `forMs` ms or until changed. */
  | { readonly verb: 'slow'; readonly factor: number; readonly forMs: number | null }
  /**
   * A node's or instance's wall clock jumps by `ms` (forward or back; an NTP step, an operator's
   * fix). Time measured by a monotonic clock (Raft's, ZooKeeper's and etcd's timers, the
   * database's keep-alives) does not jump; Redis expires keys by the wall clock (docs/semantics.md).
   */
  | { readonly verb: 'clockjump'; readonly node: string; readonly ms: number };

export type Action = ActionBody & { readonly at: number };

export const VERBS = [
  'crash',
  'restart',
  'partition',
  'heal',
  'submit',
  'client',
  'drift',
  'loss',
  'delay',
  'duplicate',
  'reorder',
  'calm',
  'timeout',
  'transfer',
  'add',
  'remove',
  'propose',
  'clockjump',
  'slow',
] as const;

/** The verbs a Paxos run takes (`propose`, and `submit` and `timeout` in Multi-Paxos); the rest are Raft's or its lock service's. */
export const PAXOS_VERBS: readonly string[] = ['crash', 'restart', 'partition', 'heal', 'loss', 'calm', 'propose', 'submit', 'timeout'];
/** The largest clock jump, either way, in ms. */
export const MAX_CLOCK_JUMP_MS = 3_600_000;
/** The longest extra delay a `delay` action may add, in ms. */
export const MAX_DELAY_MS = 60_000;
export const CLIENT_OPS = ['acquire', 'write', 'release', 'pause', 'crash', 'restart', 'put', 'get'] as const;
export const DEFAULT_LEASE_MS = 10_000;
export const MAX_SCHEDULE_CHARS = 100_000;
export const MAX_ACTIONS = 5_000;

export class ScheduleError extends Error {
  override name = 'ScheduleError';
}

const ID = /^[A-Za-z][A-Za-z0-9]{0,7}$/;
const TOKEN = /^[^\s;|,]{1,64}$/;
const KEY = /^[A-Za-z0-9_.:/-]{1,32}$/;

/** Parses schedule text; throws a ScheduleError naming the action, its position and what is allowed. */
export function parseSchedule(text: string): Action[] {
  if (text.length > MAX_SCHEDULE_CHARS) {
    throw new ScheduleError(`The schedule is ${text.length} characters long; at most ${MAX_SCHEDULE_CHARS} are allowed.`);
  }
  const actions: Action[] = [];
  let offset = 0;
  const parts = text.split(/[;\n]/);
  let number = 0;
  for (const raw of parts) {
    const start = offset;
    offset += raw.length + 1;
    const part = raw.trim();
    if (part === '') continue;
    number++;
    if (number > MAX_ACTIONS)
      throw new ScheduleError(`The schedule has more than ${MAX_ACTIONS} actions; at most ${MAX_ACTIONS} are allowed.`);
    const where = `Action ${number} ("${part.length > 60 ? part.slice(0, 57) + '...' : part}", at character ${start + raw.indexOf(part) + 1})`;
    actions.push(parseAction(part, where));
  }
  return actions;
}

function parseAction(part: string, where: string): Action {
  const m = /^@\s*(\S+)\s*(.*)$/s.exec(part);
  if (!m) throw new ScheduleError(`${where} must start with @ and a time in ms, like "@1168 crash n2".`);
  const timeText = m[1];
  if (!/^\d{1,9}$/.test(timeText) || Number(timeText) > MAX_MS) {
    throw new ScheduleError(`${where} has time "@${timeText}"; a time is a whole number of ms from 0 to ${MAX_MS}.`);
  }
  const at = Number(timeText);
  const words = m[2]
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  const verb = words[0];
  if (verb === undefined) throw new ScheduleError(`${where} has no verb; the verbs are ${VERBS.join(', ')}.`);
  const args = words.slice(1);
  const body = parseBody(verb, args, m[2].trim().slice(verb.length).trim(), where);
  return freezeAction({ at, ...body });
}

function expectArgs(args: string[], count: number, usage: string, where: string): void {
  if (args.length !== count) throw new ScheduleError(`${where} is not of the form "${usage}".`);
}

function nodeArg(id: string | undefined, usage: string, where: string): string {
  if (id === undefined || !ID.test(id)) throw new ScheduleError(`${where} is not of the form "${usage}".`);
  return id;
}

function percent(text: string | undefined, min: number, what: string, where: string): number {
  if (text === undefined || !/^-?\d{1,3}(\.\d{1,2})?$/.test(text) || Number(text) < min || Number(text) > (min < 0 ? 90 : 100)) {
    throw new ScheduleError(`${where} has ${what} "${text ?? ''}"; it must be a number of percent from ${min} to ${min < 0 ? 90 : 100}.`);
  }
  return Number(text);
}

function parseBody(verb: string, args: string[], rest: string, where: string): ActionBody {
  switch (verb) {
    case 'crash':
    case 'restart':
    case 'timeout':
    case 'transfer':
      expectArgs(args, 1, `@<ms> ${verb} <node>`, where);
      return { verb, node: nodeArg(args[0], `@<ms> ${verb} <node>`, where) };
    case 'heal':
      expectArgs(args, 0, '@<ms> heal', where);
      return { verb };
    case 'partition': {
      const usage = '@<ms> partition n1,n2 | n3,n4';
      if (rest === '') throw new ScheduleError(`${where} names no groups; write it like "${usage}".`);
      const groups = rest.split('|').map((g) => g.split(',').map((id) => id.trim()));
      const seen = new Set<string>();
      for (const group of groups) {
        for (const id of group) {
          if (!ID.test(id)) {
            throw new ScheduleError(
              `${where} has ${id === '' ? 'an empty name' : `"${id}"`} in a group; write groups of node or client ids like "${usage}".`,
            );
          }
          if (seen.has(id)) throw new ScheduleError(`${where} names ${id} in more than one group; each node may be in one group.`);
          seen.add(id);
        }
      }
      return { verb, groups };
    }
    case 'submit': {
      const usage = '@<ms> submit <command> [to <node>]';
      if (args.length === 1 && TOKEN.test(args[0])) return { verb, command: args[0], target: null };
      if (args.length === 3 && args[1] === 'to' && TOKEN.test(args[0])) {
        return { verb, command: args[0], target: nodeArg(args[2], usage, where) };
      }
      throw new ScheduleError(`${where} is not of the form "${usage}" (a command has no spaces, like x=1).`);
    }
    case 'drift': {
      expectArgs(args, 2, '@<ms> drift <node> <percent>', where);
      return { verb, node: nodeArg(args[0], '@<ms> drift <node> <percent>', where), pct: percent(args[1], -90, 'drift', where) };
    }
    case 'loss':
      expectArgs(args, 1, '@<ms> loss <percent>', where);
      return { verb, pct: percent(args[0], 0, 'loss', where) };
    case 'delay': {
      const usage = '@<ms> delay [<node or client>] <ms>';
      if (args.length < 1 || args.length > 2) throw new ScheduleError(`${where} is not of the form "${usage}".`);
      const ms = args[args.length - 1];
      if (!/^\d{1,6}$/.test(ms) || Number(ms) > MAX_DELAY_MS) {
        throw new ScheduleError(`${where} has delay "${ms}"; a delay is a whole number of ms from 0 to ${MAX_DELAY_MS}.`);
      }
      return { verb, target: args.length === 2 ? nodeArg(args[0], usage, where) : null, ms: Number(ms) };
    }
    case 'duplicate':
    case 'reorder':
      expectArgs(args, 1, `@<ms> ${verb} <percent>`, where);
      return { verb, pct: percent(args[0], 0, verb === 'duplicate' ? 'duplicates' : 'reordering', where) };
    case 'calm':
      expectArgs(args, 0, '@<ms> calm', where);
      return { verb };
    case 'client':
      return parseClient(args, where);
    case 'clockjump': {
      const usage = '@<ms> clockjump <node> +<ms> (or -<ms>)';
      expectArgs(args, 2, usage, where);
      const node = nodeArg(args[0], usage, where);
      const m = /^([+-])(\d{1,7})$/.exec(args[1]);
      if (m === null || Number(m[2]) < 1 || Number(m[2]) > MAX_CLOCK_JUMP_MS)
        throw new ScheduleError(
          `${where} has jump "${args[1]}"; a clock jump is + or - and a whole number of ms from 1 to ${MAX_CLOCK_JUMP_MS}, like +5000 or -2000.`,
        );
      return { verb, node, ms: (m[1] === '-' ? -1 : 1) * Number(m[2]) };
    }
    case 'add':
    case 'remove': {
      expectArgs(args, 1, `@<ms> ${verb} <node>`, where);
      if (!/^n[1-9]$/.test(args[0]))
        throw new ScheduleError(`${where} names server "${args[0]}"; a server ${verb === 'add' ? 'added' : 'removed'} is one of n1 to n9.`);
      return { verb, node: args[0] };
    }
    case 'propose': {
      const usage = '@<ms> propose <value> to <node>';
      if (args.length === 3 && args[1] === 'to' && TOKEN.test(args[0]))
        return { verb, value: args[0], node: nodeArg(args[2], usage, where) };
      throw new ScheduleError(`${where} is not of the form "${usage}" (a value has no spaces, like v=1).`);
    }
    case 'slow': {
      // Issue 28: `slow 3x for 20000`, `slow 2.5x` (until changed), `slow 1x` (back to normal).
      const usage = '@<ms> slow <factor>x [for <ms>]';
      const m = args.length === 1 || (args.length === 3 && args[1] === 'for') ? /^(\d{1,3}(?:\.\d{1,2})?)x$/.exec(args[0]) : null;
      if (m === null || Number(m[1]) <= 0 || Number(m[1]) > 100) {
        throw new ScheduleError(`${where} is not of the form "${usage}" with a factor above 0 and at most 100, like slow 3x for 20000.`);
      }
      let forMs: number | null = null;
      if (args.length === 3) {
        if (!/^\d{1,9}$/.test(args[2]) || Number(args[2]) < 1 || Number(args[2]) > MAX_MS) {
          throw new ScheduleError(
            `${where} has "for ${args[2]}"; how long a slow phase lasts is a whole number of ms from 1 to ${MAX_MS}.`,
          );
        }
        forMs = Number(args[2]);
      }
      return { verb, factor: Number(m[1]), forMs };
    }
    default:
      throw new ScheduleError(`${where} has unknown verb "${verb}"; the verbs are ${VERBS.join(', ')}.`);
  }
}

function parseClient(args: string[], where: string): ActionBody {
  const client = args[0];
  if (client === undefined || !/^[A-Z]$/.test(client)) {
    throw new ScheduleError(`${where} needs a client name, one capital letter, like "client A acquire job:42 10000".`);
  }
  const op = args[1];
  const rest = args.slice(2);
  const at = (usage: string) => new ScheduleError(`${where} is not of the form "client ${client} ${usage}".`);
  switch (op) {
    case 'acquire': {
      if (rest.length < 1 || rest.length > 2 || !KEY.test(rest[0])) throw at('acquire <key> [lease ms]');
      let leaseMs = DEFAULT_LEASE_MS;
      if (rest.length === 2) {
        if (!/^\d{1,9}$/.test(rest[1]) || Number(rest[1]) < 1 || Number(rest[1]) > 10_000_000) {
          throw new ScheduleError(`${where} has lease "${rest[1]}"; a lease is a whole number of ms from 1 to 10000000.`);
        }
        leaseMs = Number(rest[1]);
      }
      return { verb: 'client', client, intent: { op, key: rest[0], leaseMs } };
    }
    case 'write': {
      const m = rest.length === 1 ? /^([A-Za-z0-9_.:/-]{1,32})=([^\s;]{0,64})$/.exec(rest[0]) : null;
      if (!m) throw at('write <key>=<value>');
      return { verb: 'client', client, intent: { op, key: m[1], value: m[2] } };
    }
    case 'release':
      if (rest.length !== 1 || !KEY.test(rest[0])) throw at('release <key>');
      return { verb: 'client', client, intent: { op, key: rest[0] } };
    case 'pause':
      if (rest.length !== 1 || !/^\d{1,9}$/.test(rest[0]) || Number(rest[0]) < 1 || Number(rest[0]) > 10_000_000) {
        throw new ScheduleError(`${where} is not of the form "client ${client} pause <ms>" with ms from 1 to 10000000.`);
      }
      return { verb: 'client', client, intent: { op, ms: Number(rest[0]) } };
    case 'crash':
    case 'restart':
      if (rest.length !== 0) throw at(op);
      return { verb: 'client', client, intent: { op } };
    case 'put': {
      const m = rest.length === 1 ? /^([A-Za-z0-9_.:/-]{1,32})=([^\s;|,]{1,64})$/.exec(rest[0]) : null;
      if (!m) throw at('put <key>=<value>');
      return { verb: 'client', client, intent: { op, key: m[1], value: m[2] } };
    }
    case 'get': {
      if (rest.length < 1 || rest.length > 2 || !KEY.test(rest[0])) throw at(`get <key> [${READ_MODES.join('|')}]`);
      const mode = rest[1];
      if (mode !== undefined && !isReadMode(mode)) {
        throw new ScheduleError(`${where} has read mode "${mode}"; the read modes are ${READ_MODES.join(', ')}.`);
      }
      return { verb: 'client', client, intent: { op, key: rest[0], mode: mode ?? null } };
    }
    default:
      throw new ScheduleError(`${where} has unknown client action "${op ?? ''}"; a client can ${CLIENT_OPS.join(', ')}.`);
  }
}

/**
 * Actions never change once written, so they are frozen (with their groups and intent): a
 * checkpoint's deep copy then shares them instead of copying thousands of them.
 */
export function freezeAction(action: Action): Action {
  if ('groups' in action) {
    for (const group of action.groups) Object.freeze(group);
    Object.freeze(action.groups);
  }
  if ('intent' in action) Object.freeze(action.intent);
  return Object.freeze(action);
}

/** Checks a parsed schedule against a configuration: every node and client it names must exist. */
export function checkSchedule(actions: readonly Action[], config: SimConfig): string | null {
  const nodes = new Set(config.nodeIds);
  const clients = new Set(config.clientIds);
  const nodeList = config.nodeIds.join(', ');
  for (let i = 0; i < actions.length; i++) {
    const a = actions[i];
    const where = `Action ${i + 1} ("${formatAction(a)}")`;
    const needNode = (id: string) =>
      nodes.has(id)
        ? null
        : `${where} names node "${id}", which is not in the cluster; the nodes are ${nodeList}${nodes.size > config.nodeIds.length ? ' and those added before it' : ''}.`;
    let problem: string | null = null;
    const protocol = config.protocol;
    if (protocol !== undefined) {
      // A Paxos run (src/sim/paxos/): its own verbs; the node names are checked below as for Raft.
      if (!PAXOS_VERBS.includes(a.verb))
        problem = `${where} is a Raft verb; a ${protocol} run takes ${PAXOS_VERBS.filter((v) => protocol === 'multi-paxos' || (v !== 'submit' && v !== 'timeout')).join(', ')}.`;
      else if (protocol === 'paxos' && (a.verb === 'submit' || a.verb === 'timeout'))
        problem = `${where} needs a leader and a log, which single-decree Paxos has not; use "propose <value> to <node>", or the protocol multi-paxos.`;
      else if (a.verb === 'propose') problem = needNode(a.node);
      if (problem) return problem;
    } else if (a.verb === 'propose') {
      return `${where} is a Paxos verb; switch on the protocol paxos or multi-paxos (--protocol paxos, protocol=paxos in a link), or use submit in a Raft run.`;
    } else {
      problem = raftOnlyProblem(a, config, where);
      if (problem) return problem;
    }
    switch (a.verb) {
      case 'add':
      case 'remove':
        if (!(config.features ?? []).includes('membership')) {
          problem = `${where} changes the membership, which needs the feature membership; switch it on with --features membership (features=membership in a link, or Settings ▸ Protocol).`;
        } else if (a.verb === 'add' && !nodes.has(a.node)) {
          if (nodes.size >= MAX_NODES) problem = `${where} would make ${nodes.size + 1} servers; a run has at most ${MAX_NODES}.`;
          else nodes.add(a.node); // later actions may name it
        }
        break;
      case 'crash':
      case 'restart':
      case 'drift':
      case 'timeout':
        problem = needNode(a.node);
        break;
      case 'clockjump':
        problem =
          clients.has(a.node) && !nodes.has(a.node)
            ? `${where} names client ${a.node}; clients count time by the true clock here, so only nodes and instances (${nodeList}) have clocks that drift or jump.`
            : needNode(a.node);
        break;
      case 'transfer':
        problem =
          needNode(a.node) ??
          (config.features?.includes('transfer') === true
            ? null
            : `${where} needs the transfer feature (§3.10), which this run does not have; switch it on with --features transfer, features=transfer in the link, or Settings ▸ Protocol.`);
        break;
      case 'submit':
        problem = a.target === null ? null : needNode(a.target);
        break;
      case 'delay':
        if (a.target !== null && !nodes.has(a.target) && !clients.has(a.target)) {
          problem = `${where} names "${a.target}", which is no node or client of this run; the nodes are ${nodeList}${clients.size ? ` and the clients ${[...clients].join(', ')}` : ''}.`;
        }
        break;
      case 'partition':
        for (const id of a.groups.flat()) {
          if (!nodes.has(id) && !clients.has(id)) {
            problem = `${where} names "${id}", which is no node or client of this run; the nodes are ${nodeList}${clients.size ? ` and the clients ${[...clients].join(', ')}` : ''}.`;
            break;
          }
        }
        break;
      case 'client':
        if (!clients.has(a.client)) {
          problem = `${where} names client ${a.client}, which this run does not have; ${clients.size ? `the clients are ${[...clients].join(', ')}` : 'add it with --clients'}.`;
        } else if ((a.intent.op === 'put' || a.intent.op === 'get') && !featuresOf(config).includes('reads')) {
          problem = `${where} is a ${a.intent.op}, which needs the feature reads; switch on reads (Settings ▸ Protocol, --features reads or features=reads in a link).`;
        }
        break;
      default:
        break;
    }
    if (problem) return problem;
  }
  return null;
}

/** Verbs of Raft itself: a lock service that runs no Raft (Redis, Redlock, the database, gossip) has no leader to ask. */
const RAFT_VERBS: ReadonlySet<string> = new Set(['submit', 'timeout', 'transfer', 'add', 'remove']);

function raftOnlyProblem(a: Action, config: SimConfig, where: string): string | null {
  if (!RAFT_VERBS.has(a.verb) || runsRaft(config)) return null;
  return `${where} is a Raft action, and the lock service ${lockOf(config)} runs no Raft; pick raft, zookeeper or etcd for it.`;
}

/** The canonical text of one action; `parseSchedule(formatSchedule(a))` gives `a` back. */
export function formatAction(a: Action): string {
  return `@${a.at} ${formatBody(a)}`;
}

export function formatBody(a: ActionBody): string {
  switch (a.verb) {
    case 'crash':
    case 'restart':
    case 'timeout':
    case 'transfer':
    case 'add':
    case 'remove':
      return `${a.verb} ${a.node}`;
    case 'heal':
      return 'heal';
    case 'partition':
      return `partition ${a.groups.map((g) => g.join(',')).join(' | ')}`;
    case 'submit':
      return `submit ${a.command}${a.target ? ` to ${a.target}` : ''}`;
    case 'drift':
      return `drift ${a.node} ${a.pct}`;
    case 'loss':
      return `loss ${a.pct}`;
    case 'delay':
      return `delay ${a.target !== null ? `${a.target} ` : ''}${a.ms}`;
    case 'duplicate':
    case 'reorder':
      return `${a.verb} ${a.pct}`;
    case 'calm':
      return 'calm';
    case 'propose':
      return `propose ${a.value} to ${a.node}`;
    case 'clockjump':
      return `clockjump ${a.node} ${a.ms > 0 ? '+' : '-'}${Math.abs(a.ms)}`;
    case 'slow':
      return `slow ${a.factor}x${a.forMs !== null ? ` for ${a.forMs}` : ''}`;
    case 'client': {
      const i = a.intent;
      switch (i.op) {
        case 'acquire':
          return `client ${a.client} acquire ${i.key} ${i.leaseMs}`;
        case 'write':
          return `client ${a.client} write ${i.key}=${i.value}`;
        case 'release':
          return `client ${a.client} release ${i.key}`;
        case 'pause':
          return `client ${a.client} pause ${i.ms}`;
        case 'crash':
        case 'restart':
          return `client ${a.client} ${i.op}`;
        case 'put':
          return `client ${a.client} put ${i.key}=${i.value}`;
        case 'get':
          return `client ${a.client} get ${i.key}${i.mode !== null ? ` ${i.mode}` : ''}`;
      }
    }
  }
}

export function formatSchedule(actions: readonly Action[]): string {
  return actions.map(formatAction).join('; ');
}
