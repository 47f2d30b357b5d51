/**
 * The floor plan as rules (DESIGN.md, "Architecture"): the core's wings import only the wings
 * below them, the drawing core and the worker never reach the page, nothing imports in a circle.
 * `npm run deps` checks them; `npm test` runs it.
 */

// The simulation core's wings, in levels from the bottom: a wing imports itself and the wings of
// lower levels, never a wing beside it or above it. Protocol families beside raft (Paxos) and lock
// services beside the Raft-based one take a level's second place.
// Paxos (src/sim/paxos/) stands beside raft: neither imports the other; what both use (the
// majority, ballots' words) lives in model/. The failure detectors (detect/, issue 28) sit above both.
const LEVELS = [
  ['model'],
  ['raft', 'paxos'],
  ['detect'],
  ['net'],
  ['service', 'locks'],
  ['run'],
  ['check'],
  ['view'],
  ['teach', 'import'],
  ['experiments'],
];

const wingRules = LEVELS.flatMap((level, i) =>
  level.map((wing) => {
    const forbidden = [...LEVELS.slice(i + 1).flat(), ...level.filter((w) => w !== wing)];
    return {
      name: `sim-${wing}-imports-downward`,
      comment: `src/sim/${wing}/ may import only ${[...LEVELS.slice(0, i).flat(), wing].join(', ')}`,
      severity: 'error',
      from: { path: `^src/sim/${wing}/` },
      to: { path: `^src/sim/(${forbidden.join('|')})/` },
    };
  }),
).filter((rule) => !rule.to.path.endsWith('()/'));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circles; the Zustand store and its presenter slice may name each other (slice pattern).',
      severity: 'error',
      from: { pathNot: '^src/ui/(store/labStore|present/presentSlice)\\.ts$' },
      to: { circular: true },
    },
    {
      name: 'sim-is-the-bottom',
      comment: 'The core runs in Node and the worker alike: it never imports links, the painter, the worker, the page or the CLI.',
      severity: 'error',
      from: { path: '^src/sim/' },
      to: { path: '^src/(share|paint|worker|ui|cli)/' },
    },
    {
      name: 'sim-files-live-in-wings',
      comment: 'Every core module belongs to a wing: a newcomer finds the room by its name.',
      severity: 'error',
      from: {},
      to: { path: '^src/sim/[^/]+\\.tsx?$' },
    },
    ...wingRules,
    {
      name: 'paint-is-framework-free',
      comment: 'The drawing core serves the paint worker and React alike: it imports only the core (and d3).',
      severity: 'error',
      from: { path: '^src/paint/' },
      to: { path: '^src/(share|worker|ui|cli)/' },
    },
    {
      name: 'share-below-the-page',
      comment: 'Links are read by the CLI and the page: they never import the worker, the page or the CLI.',
      severity: 'error',
      from: { path: '^src/share/' },
      to: { path: '^src/(worker|ui|cli)/' },
    },
    {
      name: 'worker-below-the-page',
      comment: 'The worker never imports the page (DESIGN.md): the page talks to it through protocol.ts.',
      severity: 'error',
      from: { path: '^src/worker/' },
      to: { path: '^src/(ui|cli)/' },
    },
    {
      name: 'later-views-load-on-demand',
      comment:
        'The views people open later load on demand (src/ui/lazyView.tsx, issue 24 item 7): the page reaches them only through import(), or their code joins the first paint. Types are free.',
      severity: 'error',
      from: { path: '^src/ui/' },
      to: {
        path: '^src/ui/(tourRuns|controls/ToursList|spacetime/ConnectedSpaceTime|experiments/(ExperimentsView|bootExperiments)|panels/(WhyAnswer|laterPanels)|present/(PresenterView|PresenterConsole)|export/ringExport|importer/ImportView)\\.tsx?$',
        dynamic: false,
        dependencyTypesNot: ['type-only', 'type-import'],
      },
    },
    {
      name: 'page-not-cli',
      comment: 'The page never imports the command line.',
      severity: 'error',
      from: { path: '^src/ui/' },
      to: { path: '^src/cli/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
  },
};
