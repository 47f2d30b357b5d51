/**
 * Issue 28: how the failure detectors' pseudocode lines (detectorPseudocode.ts) relate to the
 * chapter's, in a module of its own so the event log's line filter does not load their text.
 */
/**
 * A detector's line and the chapter's lines it stands in for: it lights where they fire (and the
 * event log's line filter shows their events), since the detector decides what the chapter's
 * timer did. Shown only in runs whose detector adds the line's section.
 */
export const DETECTOR_LINE_SOURCES: Readonly<Record<string, readonly string[]>> = {
  'detect-phi.cross': ['timer.campaign'],
  'detect-phi.campaign': ['timer.campaign'],
  'detect-gossip.campaign': ['timer.campaign'],
};

/** The line ids a line filter stands for: itself and, for a detector's line, the chapter's lines it replaces. */
export function linesMeant(line: string): readonly string[] {
  return [line, ...(DETECTOR_LINE_SOURCES[line] ?? [])];
}
