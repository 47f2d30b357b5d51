// The registry (src/sim/model/features/): every list is derived from the manifests, so these check the
// manifests' own rules and that each manifest's rows land in every list, iterating the registry.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, checkConfig } from '../src/sim/model/config';
import {
  BUG_BLURBS,
  BUG_FEATURE,
  BUG_NAMES,
  BUGS,
  DETAIL_KINDS,
  FEATURES,
  INVARIANT_FEATURE,
  INVARIANT_IDS,
  NO_FEATURES,
  PSEUDOCODE,
  PSEUDOCODE_IDS,
  core,
  nodeBugs,
  nodeFeatures,
  type BugName,
} from '../src/sim/model/features';
import { invariant } from '../src/sim/model/describe';
import { FAULT_KINDS, TARGETED_KINDS } from '../src/sim/check/fuzz';
import { invariantsFor } from '../src/sim/check/invariants';

const manifests = [{ name: 'core', ...core }, ...FEATURES];
const lineIds = (sections: readonly { readonly lines: readonly { readonly id: string | null }[] }[]) =>
  sections.flatMap((s) => s.lines.flatMap((l) => (l.id === null ? [] : [l.id])));
const slots = (list: readonly unknown[]) =>
  list.flatMap((item) => (typeof item === 'object' && item !== null && 'slot' in item ? [String(item.slot)] : []));

describe('the manifests', () => {
  it('name each bug, flag, invariant, section, line and detail kind once across all of them', () => {
    const names = (xs: readonly string[]) => expect(new Set(xs).size, xs.join(', ')).toBe(xs.length);
    names(BUGS.map((b) => b.name));
    names(BUGS.flatMap((b) => ('flag' in b ? [b.flag] : [])));
    names(FEATURES.map((f) => f.flag));
    names(INVARIANT_IDS);
    names(PSEUDOCODE.map((s) => s.id));
    names(lineIds(PSEUDOCODE));
    names(DETAIL_KINDS);
  });

  it('name only fault kinds and targeted stories the swarm has', () => {
    const kinds: readonly string[] = [...FAULT_KINDS, ...TARGETED_KINDS];
    for (const bug of BUGS) for (const kind of bug.faults) expect(kinds, bug.name).toContain(kind);
  });

  it("cite only their own sections' lines", () => {
    for (const m of manifests) {
      const own = lineIds(
        m.pseudocode.filter((s) => !('slot' in s)) as readonly { readonly lines: readonly { readonly id: string | null }[] }[],
      );
      for (const id of m.cites) if (typeof id === 'string') expect(own, `${m.name} cites ${id}`).toContain(id);
    }
  });

  it('core.ts places each feature at most once in a list, and only features that exist', () => {
    for (const list of [core.invariants, core.pseudocode, core.cites]) {
      const placed = slots(list);
      expect(new Set(placed).size).toBe(placed.length);
      for (const name of placed) expect(['*', ...FEATURES.map((f) => f.name)]).toContain(name);
    }
  });
});

describe("each feature's rows reach every derived list", () => {
  it.each(FEATURES.map((f) => [f.name, f]))('%s', (_name, f) => {
    expect(nodeFeatures([f.name])).toEqual({ ...NO_FEATURES, [f.flag]: true });
    for (const bug of f.bugs) {
      expect(BUG_NAMES).toContain(bug.name);
      expect(BUG_FEATURE[bug.name]).toBe(f.name);
      expect(BUG_BLURBS[bug.name]).toBe(bug.blurb);
      expect(checkConfig({ ...DEFAULT_CONFIG, bugs: [bug.name] })).toBe(
        `Bug "${bug.name}" is a bug of the feature ${f.name}; switch on ${f.name} too.`,
      );
    }
    for (const inv of f.invariants) {
      expect(INVARIANT_FEATURE[inv.id]).toBe(f.name);
      expect(invariant.titles[inv.id]).toBe(inv.title);
      expect(invariantsFor({ ...DEFAULT_CONFIG, features: [f.name] })).toContain(inv.id);
      expect(invariantsFor(DEFAULT_CONFIG)).not.toContain(inv.id);
    }
    expect(PSEUDOCODE.filter((s) => s.feature === f.name).map((s) => s.id)).toEqual(f.pseudocode.map((s) => s.id));
    for (const id of f.cites) expect(PSEUDOCODE_IDS).toContain(id);
    for (const kind of f.details) expect(DETAIL_KINDS).toContain(kind);
  });

  it("and the chapter's own rows too, none of them needing a feature", () => {
    for (const bug of core.bugs) {
      expect(BUG_FEATURE[bug.name]).toBeUndefined();
      expect(BUG_BLURBS[bug.name]).toBe(bug.blurb);
    }
    for (const inv of core.invariants) if ('id' in inv) expect(invariantsFor(DEFAULT_CONFIG)).toContain(inv.id);
    for (const s of PSEUDOCODE) if (s.feature === undefined) expect(core.pseudocode).toContainEqual(s);
    for (const id of core.cites) if (typeof id === 'string') expect(PSEUDOCODE_IDS).toContain(id);
    for (const kind of core.details) expect(DETAIL_KINDS).toContain(kind);
  });

  it('a bug with a NodeBugs flag sets exactly that flag', () => {
    const off = nodeBugs(new Set());
    for (const bug of BUGS) {
      const on = nodeBugs(new Set<BugName>([bug.name]));
      expect(on).toEqual('flag' in bug ? { ...off, [bug.flag]: true } : off);
    }
  });
});
