import { benchBundle } from './src/cli/benchBundle';
await benchBundle((l) => console.log(l));
