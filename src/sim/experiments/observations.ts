/**
 * What an experiment keeps of one run: a short list of structured observations taken from the
 * engine's own records (chapter events with the node's term read off the node, the leader-append
 * and leader-commit detail events, the stores' write records) and the count of Raft messages
 * sent. Every measure (measures.ts) is a function of this record alone, so tests build records
 * by hand and the page, the worker and the CLI compute the same numbers from the same runs.
 */

export type Observation =
  | { readonly t: number; readonly kind: 'crash' | 'restart' | 'step-down'; readonly node: string }
  /** A node became a candidate in `term` (an election timeout, or a forced one). */
  | { readonly t: number; readonly kind: 'election'; readonly node: string; readonly term: number }
  | { readonly t: number; readonly kind: 'leader'; readonly node: string; readonly term: number }
  /** The network's groups after a partition (every node in exactly one). */
  | { readonly t: number; readonly kind: 'partition'; readonly groups: readonly (readonly string[])[] }
  | { readonly t: number; readonly kind: 'heal' }
  /** A submitted command entered the leader's log at `index`. */
  | { readonly t: number; readonly kind: 'append'; readonly node: string; readonly term: number; readonly index: number }
  /** A submit found no leader to take it. */
  | { readonly t: number; readonly kind: 'submit-rejected' }
  /** The leader `node` of `term` counted a majority holding every entry up to `index`. */
  | { readonly t: number; readonly kind: 'commit'; readonly node: string; readonly term: number; readonly index: number }
  /** Issue 28, gossip: node `by`'s view began to suspect `node` (its own silence, or a peer's gossip). */
  | { readonly t: number; readonly kind: 'suspect'; readonly node: string; readonly by: string }
  /** Issue 28: a client's acquire was answered (`t`), `sentAt` its first request. */
  | { readonly t: number; readonly kind: 'client-acquire'; readonly client: string; readonly sentAt: number; readonly granted: boolean }
  /** A write reached a store: its fencing token, and whether the store took it. */
  | {
      readonly t: number;
      readonly kind: 'store-write';
      readonly store: 'fenced' | 'unfenced';
      readonly client: string;
      readonly key: string;
      readonly token: number | null;
      readonly accepted: boolean;
    };

export type ObservationKind = Observation['kind'];

export interface RunRecord {
  readonly nodeIds: readonly string[];
  /** The run ends here (ms); measures over time stop here. */
  readonly endMs: number;
  /** RequestVote, VoteReply, AppendEntries and AppendReply messages sent in the whole run. */
  readonly messages: number;
  /** In time order (the order things happened in the run). */
  readonly observations: readonly Observation[];
  /** Issue 28: the gossip detector's round (ms), in a run that has one. */
  readonly gossipRoundMs?: number;
  /** Issue 28: each client's region, in a run with regions that places clients. */
  readonly clientRegions?: Readonly<Record<string, string>>;
}
