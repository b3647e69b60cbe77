import { Route, Routes, useLocation } from 'react-router';
import { AccountGate } from '@/features/account/components/account-gate';
import { stepFromPath } from '@/features/create-wizard/wizard-steps';
import { AppLayout } from './layout/app-layout';
import { lazyScreen, ScreenSuspense } from './lazy-screens';
import { DashboardShell } from './routes/dashboard-shell';
import { NotFound } from './routes/not-found';

const InviteScreen = lazyScreen(async () => (await import('@/features/account/components/invite-screen')).InviteScreen);
const CreateWizard = lazyScreen(
  async () => (await import('@/features/create-wizard/components/create-wizard')).CreateWizard,
);
const ShopifySandboxScreen = lazyScreen(
  async () => (await import('@/features/integrations/components/shopify-sandbox')).ShopifySandboxScreen,
);
const EtsySandboxScreen = lazyScreen(
  async () => (await import('@/features/integrations/components/etsy-sandbox')).EtsySandboxScreen,
);
const AmazonSandboxScreen = lazyScreen(
  async () => (await import('@/features/integrations/components/amazon-sandbox')).AmazonSandboxScreen,
);
const GelatoSandboxScreen = lazyScreen(
  async () => (await import('@/features/integrations/components/gelato-sandbox')).GelatoSandboxScreen,
);
const WooCommerceSandboxScreen = lazyScreen(
  async () => (await import('@/features/integrations/components/woocommerce-sandbox')).WooCommerceSandboxScreen,
);

const PrintifySandboxScreen = lazyScreen(
  async () => (await import('@/features/integrations/components/printify-sandbox')).PrintifySandboxScreen,
);

function WizardRoute() {
  const { pathname } = useLocation();
  return (
    <AppLayout activeTab="create-product">
      <ScreenSuspense>
        <CreateWizard step={stepFromPath(pathname)} />
      </ScreenSuspense>
    </AppLayout>
  );
}

/**
 * Spec section 2 'Routes'. An invite page opens without a session (accepting it signs the browser in); every other
 * page waits for the browser's session, and a browser without one is asked how to go on (AccountGate).
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  if (pathname.startsWith('/invite/')) {
    return (
      <Routes>
        <Route
          path="/invite/:token"
          element={
            <ScreenSuspense>
              <InviteScreen />
            </ScreenSuspense>
          }
        />
        <Route path="*" element={<NotFound />} />
      </Routes>
    );
  }
  return (
    <AccountGate>
      <SessionRoutes />
    </AccountGate>
  );
}

function SessionRoutes() {
  return (
    <Routes>
      <Route path="/" element={<DashboardShell />} />
      <Route path="/integrations" element={<DashboardShell fixedTab="integrations" />} />
      <Route
        path="/integrations/shopify-sandbox"
        element={
          <AppLayout activeTab="integrations">
            <ScreenSuspense>
              <ShopifySandboxScreen />
            </ScreenSuspense>
          </AppLayout>
        }
      />
      <Route
        path="/integrations/etsy-sandbox"
        element={
          <AppLayout activeTab="integrations">
            <ScreenSuspense>
              <EtsySandboxScreen />
            </ScreenSuspense>
          </AppLayout>
        }
      />
      <Route
        path="/integrations/amazon-sandbox"
        element={
          <AppLayout activeTab="integrations">
            <ScreenSuspense>
              <AmazonSandboxScreen />
            </ScreenSuspense>
          </AppLayout>
        }
      />
      <Route
        path="/integrations/gelato-sandbox"
        element={
          <AppLayout activeTab="integrations">
            <ScreenSuspense>
              <GelatoSandboxScreen />
            </ScreenSuspense>
          </AppLayout>
        }
      />
      <Route
        path="/integrations/woocommerce-sandbox"
        element={
          <AppLayout activeTab="integrations">
            <ScreenSuspense>
              <WooCommerceSandboxScreen />
            </ScreenSuspense>
          </AppLayout>
        }
      />
      <Route
        path="/integrations/printify-sandbox"
        element={
          <AppLayout activeTab="integrations">
            <ScreenSuspense>
              <PrintifySandboxScreen />
            </ScreenSuspense>
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
