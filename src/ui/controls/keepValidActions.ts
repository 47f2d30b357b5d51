import type { SimConfig } from '../../sim/model/config';
import { checkSchedule, type Action } from '../../sim/model/schedule';

/** The actions of a schedule that fit a configuration (a smaller cluster drops those naming the missing nodes). */
export function keepValidActions(schedule: readonly Action[], config: SimConfig): { kept: Action[]; dropped: Action[] } {
  const kept: Action[] = [];
  const dropped: Action[] = [];
  for (const a of schedule) (checkSchedule([a], config) === null ? kept : dropped).push(a);
  return { kept, dropped };
}
