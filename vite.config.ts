import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { availableParallelism } from 'node:os';

// base './' so the built site works from any path on any static host.
export default defineConfig({
  base: './',
  plugins: [react()],
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    target: 'es2022',
    rolldownOptions: {
      output: {
        // Views opened later load on demand (src/ui/lazyView.tsx). What the first paint needs goes
        // in one chunk beside the entry rather than in a dozen small ones shared with those views:
        // each is gzipped alone, so many small chunks cost bytes and requests before the ring.
        codeSplitting: { groups: [{ name: 'page', tags: ['$initial'] }] },
      },
    },
  },
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 60_000,
    // Two files at a time even on two cores (Vitest's default there is one): a browser file spends
    // much of its time waiting on Chromium, which another file's work fills.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    hookTimeout: 120_000,
  },
});
