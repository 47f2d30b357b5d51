/** Leadership transfer (Ongaro 2014 §3.10): the leader hands over with TimeoutNow. */
import { line, type FeatureManifest } from './types';

export const transfer = {
  name: 'transfer',
  flag: 'transfer',
  section: '§3.10',
  title: 'Leadership transfer',
  explanation:
    'transfer n3 hands leadership to n3: the leader stops taking requests, brings n3 up to date and sends TimeoutNow, and n3 starts an election at once; an election timeout without it aborts the transfer.',
  bugs: [
    // The target of TimeoutNow campaigns without raising its term (two leaders in one term).
    {
      name: 'transfer-keeps-term',
      flag: 'transferKeepsTerm',
      blurb: 'with leadership transfer, the target of TimeoutNow campaigns without raising its term (needs transfer)',
      faults: ['submits', 'crash'],
      caughtBy: ['election-safety'],
    },
    // TimeoutNow goes out at once, before the target holds the leader's log (§3.10).
    {
      name: 'transfer-too-early',
      flag: 'transferTooEarly',
      blurb: 'with leadership transfer, the leader sends TimeoutNow before the target is up to date (needs transfer)',
      faults: ['transfer-lagging'],
      caughtBy: ['transfer-caught-up'],
    },
  ],
  // transfer-keeps-term breaks Election Safety, which every run checks.
  invariants: [{ id: 'transfer-caught-up', title: "Transfer: TimeoutNow goes only to a target holding the leader's log" }],
  pseudocode: [
    {
      id: 'transfer',
      title: 'Leadership transfer',
      source: 'Ongaro 2014 §3.10 (feature transfer)',
      lines: [
        line('transfer.start', 0, 'leader, on transfer to T: stop taking client requests; send T what it is missing'),
        line('transfer.timeout-now', 0, 'once matchIndex[T] = last log index: send TimeoutNow to T'),
        line(
          'transfer.campaign',
          0,
          'T, on TimeoutNow: start an election at once (no pre-vote; its RequestVote says "transfer", so no voter ignores it)',
        ),
        line('transfer.abort', 0, 'leader: no new leader within an election timeout: give up, take requests again'),
      ],
    },
  ],
  cites: ['transfer.start', 'transfer.timeout-now', 'transfer.campaign', 'transfer.abort'],
  details: ['transfer-started', 'timeout-now-sent', 'timeout-now-received', 'transfer-aborted'],
  sometimes: [
    { id: 'transfer-completed', title: 'a transfer completed' },
    { id: 'transfer-target-lagging', title: 'a transfer began while its target lagged behind' },
  ],
} as const satisfies FeatureManifest;
