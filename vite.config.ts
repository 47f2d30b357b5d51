import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// base './' so the built site works from any path on any static host.
export default defineConfig({
  base: './',
  plugins: [react()],
  worker: { format: 'es' },
  build: { outDir: 'dist', target: 'es2022' },
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
