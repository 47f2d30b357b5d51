/** The bench's count of the page's initial JavaScript: the entry and its static imports, never what is imported on demand. */
import { describe, expect, it } from 'vitest';
import { formatBundle, initialChunkKeys, lazyChunkKeys, type Manifest } from '../src/cli/benchBundle';

// The shape of Vite's .vite/manifest.json: the entry imports a shared chunk statically and the
// space-time view dynamically; the view imports the shared chunk and a chunk of its own.
const MANIFEST: Manifest = {
  'index.html': {
    file: 'assets/index.js',
    src: 'index.html',
    isEntry: true,
    imports: ['_shared.js'],
    dynamicImports: ['src/ui/spacetime/View.tsx'],
  },
  '_shared.js': { file: 'assets/shared.js' },
  'src/ui/spacetime/View.tsx': {
    file: 'assets/View.js',
    src: 'src/ui/spacetime/View.tsx',
    isDynamicEntry: true,
    imports: ['_shared.js', '_scene.js'],
  },
  '_scene.js': { file: 'assets/scene.js' },
  'index.css': { file: 'assets/index.css' },
};

describe('the initial chunk set', () => {
  it('is the entry and the chunks it imports statically, not the ones it imports on demand', () => {
    expect([...initialChunkKeys(MANIFEST)].sort()).toEqual(['_shared.js', 'index.html']);
  });

  it('counts a lazy view and its own chunks as on demand, but not a chunk the entry already loads', () => {
    expect([...lazyChunkKeys(MANIFEST)].sort()).toEqual(['_scene.js', 'src/ui/spacetime/View.tsx']);
  });

  it('says BELOW TARGET at 150 KB and ok just under it', () => {
    const sizes = { initialRaw: 1, initialFiles: ['a.js'], lazy: [] };
    expect(formatBundle({ ...sizes, initialGzip: 150_000 }).met).toBe(false);
    expect(formatBundle({ ...sizes, initialGzip: 150_000 }).lines[0]).toMatch(/150\.0 KB gzipped .*target < 150 KB: BELOW TARGET$/);
    expect(formatBundle({ ...sizes, initialGzip: 149_999 }).lines[0]).toMatch(/: ok$/);
  });
});
