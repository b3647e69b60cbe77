/** The five wizard steps in their fixed order; each has its own path so reload and back/forward keep it. */
export const WIZARD_STEPS = [
  { id: 'product', label: 'Product', path: '/create' },
  { id: 'design', label: 'Design', path: '/create/design' },
  { id: 'mockups', label: 'Mockups', path: '/create/mockups' },
  { id: 'details', label: 'Details', path: '/create/details' },
  { id: 'pricing', label: 'Pricing', path: '/create/pricing' },
] as const;

export type WizardStepId = (typeof WIZARD_STEPS)[number]['id'];

export function stepFromPath(pathname: string): WizardStepId {
  const found = WIZARD_STEPS.find((s) => s.path === pathname.replace(/\/$/, ''));
  return found?.id ?? 'product';
}
