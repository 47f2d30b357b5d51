/** Hands the store and the worker bridge to components; tests pass their own. */
import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { HostBridge } from './bridge/hostBridge';
import type { LabState, LabStore } from './store/labStore';

interface Lab {
  readonly store: LabStore;
  readonly bridge: HostBridge;
}

const LabContext = createContext<Lab | null>(null);

export function LabProvider({ store, bridge, children }: Lab & { children: ReactNode }) {
  return <LabContext.Provider value={{ store, bridge }}>{children}</LabContext.Provider>;
}

function useLabContext(): Lab {
  const lab = useContext(LabContext);
  if (!lab) throw new Error('LabProvider is missing above this component.');
  return lab;
}

export function useLab<T>(selector: (s: LabState) => T): T {
  return useStore(useLabContext().store, selector);
}

export function useLabStore(): LabStore {
  return useLabContext().store;
}

export function useBridge(): HostBridge {
  return useLabContext().bridge;
}
