/**
 * What a leader knows of one peer (etcd-io/raft's `tracker/progress.go`): Figure 2's nextIndex and
 * matchIndex, plus what the protocol features keep per peer. A node holds one record per peer, in
 * the order of its `peers`; like the chapter's dicts the indexes mean something only once the
 * node has led, and keep their values after.
 */
export class Progress {
  /** The next entry to send (Figure 2's nextIndex). */
  next = 0;
  /** The highest entry known to be replicated on the peer (matchIndex). */
  match = 0;
  /** Whether the peer counts toward majorities: a voter of the configuration in force (§4.1). */
  voter = true;
  /** CheckQuorum (§6.2): whether the peer answered since the leader's last check. */
  heard = false;
  /**
   * When the peer last answered this leader (any AppendReply or InstallSnapshotReply of its term):
   * a lock service on the Raft engine serves clients only while a majority answered recently.
   */
  heardAtMs = -Infinity;
  /** Reads (§6.4): the newest heartbeat round the peer answered in this term. */
  ackRound = 0;
  /** fast-backup: rejections in a row from the peer, i.e. round trips spent backing up. */
  backupRounds = 0;

  constructor(readonly id: string) {}

  /** A successful AppendReply or InstallSnapshotReply: match never moves back (a reply may be late). */
  acknowledge(matchIndex: number): number {
    const match = this.match > matchIndex ? this.match : matchIndex;
    this.match = match;
    this.next = match + 1;
    return match;
  }

  /** A plain rejection: back up one entry and retry (the chapter's back-up; never below 1). */
  backOne(): void {
    const next = this.next - 1;
    this.next = next > 1 ? next : 1;
  }

  /** A new term of leadership: send from the leader's end, nothing known to match (Figure 2). */
  lead(next: number): void {
    this.next = next;
    this.match = 0;
    this.heardAtMs = -Infinity;
  }
}
