/** Reads (Ongaro 2014 §6.4): gets through the log, by ReadIndex, or from the leader's lease. */
import { line, type FeatureManifest } from './types';

export const reads = {
  name: 'reads',
  // AppendEntries carry a heartbeat round the replies echo, and leaders track leases.
  flag: 'reads',
  section: '§6.4',
  title: 'Reads',
  explanation:
    "Clients put and get keys in a small replicated map; a get goes through the log, confirms leadership with a heartbeat round (ReadIndex), or trusts the leader's lease (§6.4.1).",
  bugs: [
    // reads.ts reads it from cluster.bugSet; the register history check finds the stale read.
    {
      name: 'read-index-skips-heartbeat',
      blurb: 'with reads, a ReadIndex read is answered without the heartbeat round that confirms leadership (needs reads)',
      faults: ['partition', 'locks'],
      caughtBy: ['linearizable-register'],
    },
    // reads.ts reads it from cluster.bugSet: the lease runs the whole election timeout, with no margin for drift (§6.4.1).
    {
      name: 'lease-no-margin',
      blurb: 'with reads, the leader’s lease runs the whole election timeout, leaving no margin for clock drift (needs reads)',
      faults: ['lease-edge'],
      caughtBy: ['lease-bound'],
    },
  ],
  // Its reads are checked on the history (linearizable-register, core.ts); the lease's bound on
  // every lease read it answers (messageInvariants.ts).
  invariants: [{ id: 'lease-bound', title: "Reads: a lease read comes within an election timeout of a majority's answer" }],
  pseudocode: [
    {
      id: 'reads',
      title: 'Reads',
      source: 'Ongaro 2014 §6.4, §6.4.1 (feature reads)',
      lines: [
        line('read.log.answer', 0, 'log read: append the get like a write; answer with the value when it applies'),
        line(null, 0, 'ReadIndex read (leader): wait until an entry of currentTerm is committed'),
        line('read.index.record', 1, 'readIndex = commitIndex'),
        line('read.index.heartbeat', 1, 'send a heartbeat round; wait until a majority answers it (still leader)'),
        line('read.index.answer', 1, 'wait until lastApplied >= readIndex; answer from the state machine'),
        line(
          'read.lease.answer',
          0,
          'lease read: if a majority answered a round sent less than election timeout - drift margin ago (own clock): answer at once',
        ),
      ],
    },
  ],
  cites: ['read.log.answer', 'read.index.record', 'read.index.heartbeat', 'read.index.answer', 'read.lease.answer'],
  details: ['read-index-recorded', 'read-served'],
  sometimes: [
    { id: 'lease-read-drifting', title: 'a lease read ran while a clock drifted' },
    { id: 'lease-read-late', title: 'a lease read was answered in the last fifth of the lease, its clock slow within the margin' },
    { id: 'lock-key-is-map-key', title: 'a lock key was also a map key' },
  ],
} as const satisfies FeatureManifest;
