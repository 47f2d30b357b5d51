// The worker thread's entry in plain JavaScript: a thread does not inherit tsx's loader from
// `npm run experiment`, so it registers it, then loads the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./experimentThread.ts');
