import { useCallback, useEffect, useState } from 'react';
import { clearWizardStorage, INITIAL_WIZARD, loadWizardState, saveWizardState, type WizardState } from './wizard-state';

export type WizardUpdate = (patch: Partial<WizardState> | ((state: WizardState) => Partial<WizardState>)) => void;

/** The wizard's state, saved on every change so a reload or a visit elsewhere keeps the product in progress. */
export function useWizardState() {
  const [state, setState] = useState<WizardState>(loadWizardState);

  useEffect(() => saveWizardState(state), [state]);

  const update: WizardUpdate = useCallback(
    (patch) => setState((s) => ({ ...s, ...(typeof patch === 'function' ? patch(s) : patch) })),
    [],
  );
  const reset = useCallback(() => {
    clearWizardStorage();
    setState(INITIAL_WIZARD);
  }, []);
  return { state, update, reset };
}
