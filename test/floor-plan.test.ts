// The floor plan's import rules (.dependency-cruiser.cjs, run by `npm run deps` in `npm test`)
// catch what they promise: the rules are run over a small tree that breaks each of them once.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cruise } from 'dependency-cruiser';

const require = createRequire(import.meta.url);
const rules = require('../.dependency-cruiser.cjs') as { forbidden: unknown[]; options: Record<string, unknown> };

const root = mkdtempSync(join(tmpdir(), 'floor-plan-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function tree(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

async function violations(): Promise<string[]> {
  const { tsConfig: _tsConfig, ...options } = rules.options;
  const cwd = process.cwd();
  process.chdir(root);
  try {
    const result = await cruise(
      ['src'],
      { ...options, ruleSet: { forbidden: rules.forbidden }, validate: true } as never,
      { extensions: ['.ts', '.tsx'] } as never,
    );
    const output = result.output as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
    return output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
  } finally {
    process.chdir(cwd);
  }
}

describe('the floor plan’s import rules', () => {
  it('name each upward import, import circle and file outside a wing, and pass what goes downward', async () => {
    tree({
      // Allowed: raft imports model; the page imports the core and the painter.
      'src/sim/model/words.ts': 'export const words = 1;\n',
      'src/sim/raft/node.ts': "import { words } from '../model/words';\nexport const node = words;\n",
      'src/ui/page.ts':
        "import { node } from '../sim/raft/node';\nimport { paint } from '../paint/paint';\nexport const page = node + paint;\n",
      'src/paint/paint.ts': "import { words } from '../sim/model/words';\nexport const paint = words;\n",
      // Broken, once each.
      'src/sim/model/up.ts': "import { node } from '../raft/node';\nexport const up = node;\n",
      'src/sim/check/a.ts': "import { b } from './b';\nexport const a = 1 + b;\n",
      'src/sim/check/b.ts': "import { a } from './a';\nexport const b = a;\n",
      'src/sim/loose.ts': 'export const loose = 1;\n',
      'src/sim/run/uses-loose.ts': "import { loose } from '../loose';\nexport const x = loose;\n",
      'src/sim/run/reaches-page.ts': "import { page } from '../../ui/page';\nexport const y = page;\n",
      'src/worker/w.ts': "import { page } from '../ui/page';\nexport const w = page;\n",
      'src/paint/reaches-worker.ts': "import { w } from '../worker/w';\nexport const z = w;\n",
    });
    expect(await violations()).toEqual([
      'no-circular: src/sim/check/a.ts -> src/sim/check/b.ts',
      'paint-is-framework-free: src/paint/reaches-worker.ts -> src/worker/w.ts',
      'sim-files-live-in-wings: src/sim/run/uses-loose.ts -> src/sim/loose.ts',
      'sim-is-the-bottom: src/sim/run/reaches-page.ts -> src/ui/page.ts',
      'sim-model-imports-downward: src/sim/model/up.ts -> src/sim/raft/node.ts',
      'worker-below-the-page: src/worker/w.ts -> src/ui/page.ts',
    ]);
  });
});
