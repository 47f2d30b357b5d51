import { RaftLog } from '../../src/sim/raft/log';
import type { LogEntry } from '../../src/sim/model/types';

/** A log holding `entries` after a snapshot that ends at index `base` with term `baseTerm`. */
export function raftLogOf(entries: LogEntry[], base = 0, baseTerm = 0): RaftLog {
  const log = new RaftLog();
  log.entries = entries;
  log.snapshotIndex = base;
  log.snapshotTerm = baseTerm;
  return log;
}
