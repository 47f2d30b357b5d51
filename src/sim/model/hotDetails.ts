/**
 * The four detail kinds every log entry produces on every server: the leader's append, each
 * follower's accepted AppendEntries, every commit-index step and every apply. A run with a submit
 * every 10 ms records 1,400 of them a simulated second, and building each as a body (four objects)
 * cost the engine more than the work it describes: the young generation filled three times as
 * often. So the engine names them with their values, through these functions: a host that keeps a
 * DetailLog (the cluster) codes them at once without any object (detailLog.ts); any other host
 * (the rules' tests) gets the very body these functions build, through `detail` as before.
 *
 * The bodies below are the one definition of these kinds' subjects, lines and key order; the
 * DetailLog's shapes for them are read off these bodies, so both paths give equal records.
 */
import type { DetailBody } from './events';
import type { ApplyResult, Command } from './types';

export type CommitRule = 'majority' | 'earlier-term-by-counting' | 'leader-commit';

/** Where details go (a node's host, the cluster): any detail as a body, and optionally the hot kinds without one. */
export interface DetailHost {
  detail(body: DetailBody): void;
  leaderAppended?(node: string, term: number, index: number, command: Command, noop: boolean): void;
  appendAccepted?(node: string, leader: string, term: number, from: number, to: number, added: number): void;
  commitAdvanced?(
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
  ): void;
}

// -- the bodies ---------------------------------------------------------------------------------
// Their values are built by the functions below, the one place that fixes each kind's key order:
// a DetailLog reading these kinds back builds them with the same functions.

export const leaderAppendValues = (node: string, term: number, index: number, command: Command) => ({ node, term, index, command });

export function leaderAppendBody(node: string, term: number, index: number, command: Command, noop: boolean): DetailBody {
  return {
    kind: 'leader-append',
    subjects: [node],
    values: leaderAppendValues(node, term, index, command),
    lines: [noop ? 'leader.noop' : 'leader.append'],
  };
}

export const appendAcceptedValues = (node: string, leader: string, term: number, from: number, to: number, added: number) => ({
  node,
  leader,
  term,
  from,
  to,
  added,
});

export function appendAcceptedBody(node: string, leader: string, term: number, from: number, to: number, added: number): DetailBody {
  return {
    kind: 'append-accepted',
    subjects: [node, leader],
    values: appendAcceptedValues(node, leader, term, from, to, added),
    lines: ['ae.append-new'],
  };
}

export const commitAdvancedValues = (
  node: string,
  from: number,
  to: number,
  term: number,
  rule: CommitRule,
  replicas: number | null,
  majority: number | null,
  leader: string | null,
  leaderCommit: number | null,
) => ({ node, from, to, term, rule, replicas, majority, leader, leaderCommit });

/**
 * A commit-index step. The leader's rules (majority, and an earlier term's entry counted under the
 * Figure 8 bug) name the leader alone and, with membership on, the joint count (`memberCount`);
 * the follower's (the leader's commit index) name the leader it heard too.
 */
export function commitAdvancedBody(
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
): DetailBody {
  const values = commitAdvancedValues(node, from, to, term, rule, replicas, majority, leader, leaderCommit);
  if (rule === 'leader-commit') {
    return { kind: 'commit-advanced', subjects: [node, leader as string], values, lines: ['ae.commit.leader-commit'] };
  }
  const line = rule === 'majority' ? 'commit.majority' : 'commit.earlier-term-by-counting';
  return { kind: 'commit-advanced', subjects: [node], values, lines: memberCount ? [line, 'member.count'] : [line] };
}

export const appliedValues = (node: string, index: number, term: number, command: Command, result: ApplyResult | null) => ({
  node,
  index,
  term,
  command,
  result,
});

export function appliedBody(node: string, index: number, term: number, command: Command, result: ApplyResult | null): DetailBody {
  return { kind: 'applied', subjects: [node], values: appliedValues(node, index, term, command, result), lines: ['apply'] };
}

// -- what the engine calls ----------------------------------------------------------------------

export function recordLeaderAppend(host: DetailHost, node: string, term: number, index: number, command: Command, noop: boolean): void {
  if (host.leaderAppended !== undefined) host.leaderAppended(node, term, index, command, noop);
  else host.detail(leaderAppendBody(node, term, index, command, noop));
}

export function recordAppendAccepted(
  host: DetailHost,
  node: string,
  leader: string,
  term: number,
  from: number,
  to: number,
  added: number,
): void {
  if (host.appendAccepted !== undefined) host.appendAccepted(node, leader, term, from, to, added);
  else host.detail(appendAcceptedBody(node, leader, term, from, to, added));
}

export function recordCommitAdvanced(
  host: DetailHost,
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
): void {
  if (host.commitAdvanced !== undefined)
    host.commitAdvanced(node, from, to, term, rule, replicas, majority, leader, leaderCommit, memberCount);
  else host.detail(commitAdvancedBody(node, from, to, term, rule, replicas, majority, leader, leaderCommit, memberCount));
}
