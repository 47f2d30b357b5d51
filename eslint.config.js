import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// The sim core must be a pure function of (seed, configuration, schedule): no wall clock,
// no ambient randomness, no timers, no DOM. These rules keep it that way.
const impureGlobals = [
  'Math.random',
  'Date',
  'performance',
  'setTimeout',
  'setInterval',
  'setImmediate',
  'clearTimeout',
  'clearInterval',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'queueMicrotask',
  'window',
  'document',
  'navigator',
  'location',
  'localStorage',
  'sessionStorage',
  'fetch',
  'XMLHttpRequest',
  'self',
  'globalThis',
  'process',
  'crypto',
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/sim/**/*.ts'],
    languageOptions: { globals: { ...globals.es2022 } },
    rules: {
      'no-restricted-globals': [
        'error',
        ...impureGlobals
          .filter((g) => !g.includes('.'))
          .map((name) => ({
            name,
            message: `src/sim is pure: ${name} is not allowed here (time and randomness come from the simulation).`,
          })),
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'Math',
          property: 'random',
          message: 'src/sim is pure: use the seeded PRNG, never Math.random.',
        },
        {
          object: 'globalThis',
          message: 'src/sim is pure: no ambient globals.',
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date']",
          message: 'src/sim is pure: no wall clock.',
        },
      ],
    },
  },
);
