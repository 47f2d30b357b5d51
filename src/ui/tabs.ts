/** Which side panel a scenario is about (null: leave the panel as it is). */
import type { SideTab } from './store/labStore';

export function tabForPreset(label: string | null): SideTab | null {
  switch (label) {
    case 'fencing':
    case 'clock-drift':
      return 'stores';
    case 'ghost-lock':
    case 'failover-lease':
      return 'locks';
    case 'counterexample':
      return 'invariants';
    case 'custom':
    case 'link':
    case null:
      return null;
    default:
      return 'logs';
  }
}
