/** Which side panel a scenario is about. */
import type { SideTab } from './store/labStore';

export function tabForPreset(label: string | null): SideTab {
  switch (label) {
    case 'fencing':
    case 'clock-drift':
      return 'stores';
    case 'ghost-lock':
    case 'failover-lease':
      return 'locks';
    default:
      return 'logs';
  }
}
