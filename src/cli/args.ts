/** A small strict flag parser: every flag is known, every value checked, every error one sentence. */

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface FlagSpec {
  readonly name: string;
  /** Takes a value (`--seed 42` or `--seed=42`); otherwise a boolean switch. */
  readonly value: boolean;
}

export function parseFlags(argv: readonly string[], specs: readonly FlagSpec[]): Map<string, string | true> {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const out = new Map<string, string | true>();
  const known = specs.map((s) => `--${s.name}`).join(', ');
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new UsageError(`Unexpected argument "${arg}"; flags start with -- (known flags: ${known}).`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const spec = byName.get(name);
    if (!spec) throw new UsageError(`Unknown flag "--${name}"; the known flags are ${known}.`);
    if (out.has(name)) throw new UsageError(`Flag --${name} is given twice; give it once.`);
    if (!spec.value) {
      if (eq !== -1) throw new UsageError(`Flag --${name} takes no value.`);
      out.set(name, true);
      continue;
    }
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      i++;
    }
    if (value === undefined || (eq === -1 && value.startsWith('--'))) throw new UsageError(`Flag --${name} needs a value.`);
    out.set(name, value);
  }
  return out;
}

export function wholeNumber(text: string, flag: string, min: number, max: number): number {
  if (!/^\d{1,12}$/.test(text.trim()) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`--${flag} must be a whole number from ${min} to ${max}, not "${text}".`);
  }
  return Number(text);
}
