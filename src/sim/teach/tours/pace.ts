/**
 * How fast a tour beat plays. A beat has one key moment — where its narration's point happens —
 * known before it plays (a run is a pure function of its inputs), so the page can slow down
 * *before* it: the stretch of messages that lead to the moment (followed back from what was
 * delivered then, through what each delivery sent) and those it sends on plays slowly enough that
 * every message of it is on screen for at least READABLE_MESSAGE_MS; the rest of the beat plays
 * fast enough to fit a few seconds. Secret Lives of Data's users asked for exactly this: go slower
 * where it matters.
 *
 * A message is on screen from its send to its delivery (or drop), so at speed s (simulated ms per
 * real ms) a message of flight f takes f / s real ms.
 */
import type { ClusterTracer } from '../../net/cluster';
import { MAX_SPEED, MIN_SPEED, SPEED_CHOICES } from '../../model/limits';
import type { Message } from '../../model/types';

/** Each message of a key moment stays on screen at least this long (real ms). */
export const READABLE_MESSAGE_MS = 1500;
/** The part of a beat before and after its key moment plays in about this long (real ms) at most. */
export const FAST_PART_REAL_MS = 6000;
/** A key moment's slow stretch lasts at most about this long (real ms); past it, messages go faster. */
export const SLOW_PART_MAX_REAL_MS = 20_000;
/** How far back (simulated ms) the messages that led to a key moment are followed. */
export const LEAD_MAX_MS = 40;
/** How far on (simulated ms) the messages a key moment sends are followed. */
export const TAIL_MAX_MS = 30;
/** A key moment with no message leading to it (a timer running out) slows this long before it. */
export const BARE_LEAD_MS = 12;

/** One message as a tour's pace sees it: when it was sent and when it left the screen. */
export interface PacedMessage {
  readonly id: number;
  readonly type: Message['type'];
  readonly src: string;
  readonly dst: string;
  readonly sentAt: number;
  /** Delivered or dropped at: its due time (the network drops a message when it is due). */
  readonly endAt: number;
  /** The message whose delivery sent this one (null: a tick or an action sent it). */
  readonly cause: number | null;
}

/**
 * Records the messages of a run while it plays (a ClusterTracer: it only reads, so the run with
 * it is the run without it). Only messages still on screen at or after `fromMs` are kept.
 */
export class MessageLog implements ClusterTracer {
  readonly messages = new Map<number, PacedMessage>();
  /** The message being delivered now: what is sent meanwhile answers it. */
  private current: number | null = null;

  constructor(private readonly fromMs: number) {}

  sent(id: number, sentAt: number, dueAt: number, src: string, dst: string, msg: Message): void {
    if (dueAt < this.fromMs) return;
    this.messages.set(id, { id, type: msg.type, src, dst, sentAt, endAt: dueAt, cause: this.current });
  }
  delivering(id: number): void {
    this.current = id;
  }
  /** A drop happens when the message is due (DESIGN.md: at delivery time), so its end is already right. */
  dropped(): void {}
  deliveriesDone(): void {
    this.current = null;
  }
  afterStep(): void {}
}

/** A beat's slow stretch: from before its key moment to after it, at a speed its messages can be read at. */
export interface BeatPace {
  /** Where the beat's point happens (simulated ms). */
  readonly keyMs: number;
  readonly slowFromMs: number;
  readonly slowToMs: number;
  /** Simulated ms per real ms in the slow stretch: one of SPEED_CHOICES. */
  readonly slowSpeed: number;
  /** The messages the stretch is about (leading to the moment and sent by it), each readable at slowSpeed. */
  readonly keyMessages: readonly PacedMessage[];
  /** Every message on screen within the slow stretch (heartbeats and all), for the page's checks. */
  readonly shownMessages: readonly PacedMessage[];
}

/** The fastest speed choice at or below `speed` (the speed box shows round values only). */
export function choiceAtMost(speed: number): number {
  let best: number = SPEED_CHOICES[0];
  for (const c of SPEED_CHOICES) if (c <= speed + 1e-12) best = c;
  return best;
}

/** The slowest speed choice at or above `speed`. */
export function choiceAtLeast(speed: number): number {
  for (const c of SPEED_CHOICES) if (c >= speed - 1e-12) return c;
  return SPEED_CHOICES[SPEED_CHOICES.length - 1];
}

/**
 * The slow stretch around `keyMs` in a beat from `startMs` to `endMs`, from the messages the beat's
 * run recorded: the chain of deliveries that led to the moment (each message delivered at it, the
 * one whose delivery sent it, and so on back up to LEAD_MAX_MS), and what was sent at it and
 * because of that, up to TAIL_MAX_MS on.
 */
export function paceAround(log: MessageLog, keyMs: number, startMs: number, endMs: number): BeatPace {
  const all = [...log.messages.values()];
  const chain = new Map<number, PacedMessage>();
  // Only messages sent within the beat: one already on its way when the beat began was shown by the beat before.
  const since = Math.max(startMs, keyMs - LEAD_MAX_MS);
  const lead = (m: PacedMessage) => {
    for (let cur: PacedMessage | undefined = m; cur && !chain.has(cur.id) && cur.sentAt >= since;) {
      chain.set(cur.id, cur);
      cur = cur.cause === null ? undefined : log.messages.get(cur.cause);
    }
  };
  for (const m of all) if (m.endAt === keyMs && m.sentAt < keyMs) lead(m);
  // What the moment sent (an action, a delivery), and what those deliveries sent in turn.
  const tail = all.filter((m) => m.sentAt === keyMs);
  for (let i = 0; i < tail.length; i++) {
    const m = tail[i];
    if (m.endAt > Math.min(endMs, keyMs + TAIL_MAX_MS) || chain.has(m.id)) continue;
    chain.set(m.id, m);
    for (const child of all) if (child.cause === m.id && child.sentAt === m.endAt) tail.push(child);
  }
  const key = [...chain.values()].sort((a, b) => a.sentAt - b.sentAt || a.id - b.id);
  let from = key.length > 0 ? Math.min(...key.map((m) => m.sentAt)) : keyMs - BARE_LEAD_MS;
  let to = key.length > 0 ? Math.max(keyMs, ...key.map((m) => m.endAt)) : keyMs;
  from = Math.max(startMs, Math.min(from, keyMs - 1) - 1);
  to = Math.min(endMs, to);
  const flights = key.map((m) => Math.max(1, m.endAt - m.sentAt));
  const readable = flights.length > 0 ? Math.min(...flights) / READABLE_MESSAGE_MS : (to - from) / 4000;
  // Slow enough for the shortest key message, but not so slow that the stretch drags on.
  const speed = Math.max(choiceAtMost(readable), choiceAtLeast((to - from) / SLOW_PART_MAX_REAL_MS));
  const shown = all.filter((m) => m.sentAt < to && m.endAt > from).sort((a, b) => a.sentAt - b.sentAt || a.id - b.id);
  return {
    keyMs,
    slowFromMs: from,
    slowToMs: to,
    slowSpeed: Math.min(MAX_SPEED, Math.max(MIN_SPEED, speed)),
    keyMessages: key,
    shownMessages: shown,
  };
}

/** One step of a pace plan: from this simulated time on, play at this speed. */
export interface PaceStep {
  readonly fromMs: number;
  readonly speed: number;
}

/**
 * The speeds a beat plays at, given the speed the person chose: the stretch before the key moment
 * and the one after it no slower than chosen and fast enough to fit FAST_PART_REAL_MS between them,
 * the key moment at its readable speed (or the chosen one, if that is slower still).
 */
export function pacePlan(startMs: number, endMs: number, pace: BeatPace | null, chosen: number): PaceStep[] {
  if (pace === null) {
    const fit = (endMs - startMs) / FAST_PART_REAL_MS;
    return [{ fromMs: startMs, speed: Math.max(chosen, fit > chosen ? choiceAtLeast(fit) : chosen) }];
  }
  const fastMs = pace.slowFromMs - startMs + (endMs - pace.slowToMs);
  const fit = fastMs / FAST_PART_REAL_MS;
  const fast = fit > chosen ? choiceAtLeast(fit) : chosen;
  const steps: PaceStep[] = [];
  if (pace.slowFromMs > startMs) steps.push({ fromMs: startMs, speed: fast });
  steps.push({ fromMs: pace.slowFromMs, speed: Math.min(chosen, pace.slowSpeed) });
  if (pace.slowToMs < endMs) steps.push({ fromMs: pace.slowToMs, speed: fast });
  return steps;
}

/** The speed a plan plays at, at simulated time `t` (before its first step: its first step's). */
export function speedAt(steps: readonly PaceStep[], t: number): number {
  let s = steps[0].speed;
  for (const step of steps) if (step.fromMs <= t) s = step.speed;
  return s;
}

/** How long (real ms) a plan takes to play from `startMs` to `endMs`. */
export function planRealMs(steps: readonly PaceStep[], startMs: number, endMs: number): number {
  let total = 0;
  for (let i = 0; i < steps.length; i++) {
    const from = Math.max(startMs, i === 0 ? startMs : steps[i].fromMs);
    const to = Math.min(endMs, i + 1 < steps.length ? steps[i + 1].fromMs : endMs);
    if (to > from) total += (to - from) / steps[i].speed;
  }
  return total;
}
