import { useCallback, useEffect, useState } from 'react';
import { INITIAL_FLOW, type SimpleFlowState } from './simple-flow';

/** Session storage keeps the flow while the seller visits other tabs (e.g. My Products after creating). */
export const SIMPLE_FLOW_STORAGE_KEY = 'podforge.create-product.v1';

function load(): SimpleFlowState {
  try {
    const raw = sessionStorage.getItem(SIMPLE_FLOW_STORAGE_KEY);
    if (!raw) return INITIAL_FLOW;
    const parsed = JSON.parse(raw) as Partial<SimpleFlowState>;
    return { ...INITIAL_FLOW, ...parsed };
  } catch {
    return INITIAL_FLOW;
  }
}

export function useSimpleFlow() {
  const [state, setState] = useState<SimpleFlowState>(load);

  useEffect(() => {
    try {
      sessionStorage.setItem(SIMPLE_FLOW_STORAGE_KEY, JSON.stringify(state));
    } catch {
      // Storage full or disabled: the flow still works for this visit.
    }
  }, [state]);

  const update = useCallback((patch: Partial<SimpleFlowState>) => setState((s) => ({ ...s, ...patch })), []);
  const reset = useCallback(() => setState(INITIAL_FLOW), []);
  return { state, update, reset };
}
