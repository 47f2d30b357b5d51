/** What can be asked Why about, and the shape of an answer (why.ts for Raft runs, paxosWhy.ts for Paxos runs). */

export type WhySubject =
  | { readonly kind: 'node'; readonly id: string }
  | { readonly kind: 'entry'; readonly node: string; readonly index: number }
  | { readonly kind: 'message'; readonly seq: number }
  | { readonly kind: 'vote'; readonly node: string }
  | { readonly kind: 'no-leader' }
  | { readonly kind: 'client'; readonly id: string }
  | { readonly kind: 'lock'; readonly node: string; readonly key: string }
  /** `index` is the write's position in the store's `writes` list in the snapshot. */
  | { readonly kind: 'store-write'; readonly store: 'fenced' | 'unfenced'; readonly index: number };

export interface Explanation {
  readonly title: string;
  /** Short paragraphs, each with the concrete values. */
  readonly answer: readonly string[];
  /** The rule the answer follows, with its source. */
  readonly rule: string;
  readonly facts?: readonly (readonly [label: string, value: string])[];
}
