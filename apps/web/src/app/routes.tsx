import { Route, Routes, useLocation } from 'react-router';
import { CreateWizard } from '@/features/create-wizard/components/create-wizard';
import { stepFromPath } from '@/features/create-wizard/wizard-steps';
import { ShopifySandboxScreen } from '@/features/integrations/components/shopify-sandbox';
import { AppLayout } from './layout/app-layout';
import { DashboardShell } from './routes/dashboard-shell';
import { NotFound } from './routes/not-found';

function WizardRoute() {
  const { pathname } = useLocation();
  return (
    <AppLayout activeTab="create-product">
      <CreateWizard step={stepFromPath(pathname)} />
    </AppLayout>
  );
}

/** Spec section 2 'Routes'. */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<DashboardShell />} />
      <Route path="/integrations" element={<DashboardShell fixedTab="integrations" />} />
      <Route
        path="/integrations/shopify-sandbox"
        element={
          <AppLayout activeTab="integrations">
            <ShopifySandboxScreen />
          </AppLayout>
        }
      />
      <Route path="/create-product" element={<DashboardShell fixedTab="create-product" />} />
      {['/create', '/create/design', '/create/mockups', '/create/details', '/create/pricing'].map((path) => (
        <Route key={path} path={path} element={<WizardRoute />} />
      ))}
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
