/**
 * The one formatter for event text: event lines, test expectations and error sentences all come
 * from here, so the chapter's wording lives in one place.
 */
import type { Command, LockCommand } from './types';

/** `t=  156 ms n2 election timeout, ...`: `t=` then the time right-aligned to 5 characters. */
export function eventLine(nowMs: number, text: string): string {
  return `t=${String(nowMs).padStart(5, ' ')} ms ${text}`;
}

/** Python's `sorted()` on ids: plain code-unit order, so the chapter's vote lists match. */
export function sortedIds(ids: Iterable<string>): string[] {
  return [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export const describe = {
  electionTimeout: (id: string, term: number) => `${id} election timeout, candidate in term ${term}`,
  wins: (id: string, term: number, voters: readonly string[]) =>
    `${id} wins term ${term} with votes from ${voters.join(', ')}`,
  stepsDown: (id: string, term: number) => `${id} steps down, follower in term ${term}`,
  crashes: (id: string) => `${id} crashes`,
  restarts: (id: string, term: number) => `${id} restarts as follower in term ${term}`,
  partition: (groups: readonly (readonly string[])[]) =>
    `partition ${groups.map((g) => '{' + sortedIds(g).join(', ') + '}').join(' | ')}`,
  healed: () => 'partition healed',
  submitRejected: (command: string, target: string | null, reason: string) =>
    `submit ${command}${target ? ` to ${target}` : ''} rejected: ${reason}`,
  drift: (id: string, pct: number) => `${id} clock drift set to ${pct > 0 ? '+' : ''}${pct}%`,
  loss: (pct: number) => `message loss set to ${pct}%`,
};

/** A log command as people read it: `x=1`, `grant job:42 to A (10000 ms)`, `expire job:42 #1`. */
export function commandText(command: Command): string {
  if (typeof command === 'string') return command;
  return lockCommandText(command);
}

export function lockCommandText(command: LockCommand): string {
  switch (command.type) {
    case 'grant':
      return `grant ${command.key} to ${command.owner} (${command.leaseMs} ms)`;
    case 'release':
      return `release ${command.key}`;
    case 'expire':
      return `expire ${command.key} token ${command.token}`;
  }
}

/** Python's repr of a list of strings, for the chapter-style summary lines. */
export function pyList(items: readonly (string | number)[]): string {
  return '[' + items.map((s) => (typeof s === 'number' ? String(s) : `'${s}'`)).join(', ') + ']';
}
