/** Membership changes (Ongaro 2014 §4.1): one server at a time, learners first (§4.2.1). */
import { line, type FeatureManifest } from './types';

export const membership = {
  name: 'membership',
  flag: 'membership',
  section: '§4.1',
  title: 'Membership changes',
  explanation:
    'Servers are added (first as non-voting learners that catch up, §4.2.1) and removed one at a time by configuration entries, which take effect as soon as they are appended.',
  bugs: [
    // A leader starts a second configuration change before the first commits (defeats §4.1).
    // Its faults are drawn from the membership stream of their own (fuzz/membershipFaults.ts).
    {
      name: 'config-changes-at-once',
      flag: 'configChangesAtOnce',
      blurb: 'with membership changes, a leader starts a second change before the first commits (needs membership)',
      faults: [],
      caughtBy: ['one-config-change'],
    },
    // A leader that removed itself leads on after the removal commits (§4.2.2: it steps down).
    {
      name: 'removed-leader-stays',
      flag: 'removedLeaderStays',
      blurb: 'with membership changes, a leader that removed itself keeps leading after the removal commits (needs membership)',
      faults: ['remove-leader'],
      caughtBy: ['removed-not-leading'],
    },
  ],
  invariants: [
    { id: 'one-config-change', title: 'Membership: at most one configuration change uncommitted' },
    { id: 'config-majority', title: 'Membership: majorities are of the configuration in force' },
    {
      id: 'removed-not-leading',
      title: 'Membership: no server leads a configuration it is not in once it knows that configuration committed',
    },
  ],
  pseudocode: [
    {
      id: 'member',
      title: 'Membership changes',
      source: 'Ongaro 2014 §4.1, §4.2.1, §4.2.2 (feature membership)',
      lines: [
        line('member.learner', 0, 'leader, on add s: replicate to s as a non-voting learner; it does not count in any majority'),
        line('member.promote', 0, "once the learner holds the leader's last entry: append the configuration C ∪ {s}"),
        line(
          'member.refuse',
          0,
          'refuse a change while a configuration entry is uncommitted, a learner catches up or leadership is being handed over',
        ),
        line('member.append', 0, 'any server, on appending a configuration entry: use it at once, committed or not'),
        line('member.count', 0, 'elections and commits count only the voters of the latest configuration in the log'),
        line('member.removed-leader', 0, 'a leader not in its configuration steps down once that entry is committed'),
        line('member.no-campaign', 0, 'a server not in its own latest configuration does not campaign, on its timer or on TimeoutNow'),
      ],
    },
  ],
  cites: [
    'member.learner',
    'member.promote',
    'member.append',
    'member.refuse',
    'member.count',
    'member.removed-leader',
    'member.no-campaign',
  ],
  details: ['learner-added', 'learner-promoted', 'config-appended', 'removed-leader-steps-down', 'not-campaigning', 'timeout-now-ignored'],
  sometimes: [{ id: 'removed-leader-stepped-down', title: 'a removed leader stepped down' }],
} as const satisfies FeatureManifest;
