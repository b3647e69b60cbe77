import { useNavigate, useSearchParams } from 'react-router';
import { AppLayout } from '../layout/app-layout';
import { lazyScreen, ScreenSuspense } from '../lazy-screens';
import { resolveTab, type TabId, tabPath } from '../tabs';

const AiGeneratorScreen = lazyScreen(
  async () => (await import('@/features/ai-generator/components/ai-generator-screen')).AiGeneratorScreen,
);
const BulkScreen = lazyScreen(async () => (await import('@/features/bulk/components/bulk-screen')).BulkScreen);
const CreateProductScreen = lazyScreen(
  async () => (await import('@/features/create-product/components/create-product-screen')).CreateProductScreen,
);
const DashboardScreen = lazyScreen(
  async () => (await import('@/features/dashboard/components/dashboard-screen')).DashboardScreen,
);
const IntegrationsScreen = lazyScreen(
  async () => (await import('@/features/integrations/components/integrations-screen')).IntegrationsScreen,
);
const MyProductsScreen = lazyScreen(
  async () => (await import('@/features/my-products/components/my-products-screen')).MyProductsScreen,
);
const ProductPickerScreen = lazyScreen(
  async () => (await import('@/features/product-picker/components/product-picker-screen')).ProductPickerScreen,
);
const OrdersScreen = lazyScreen(async () => (await import('@/features/orders/components/orders-screen')).OrdersScreen);
const UploadScreen = lazyScreen(async () => (await import('@/features/upload/components/upload-screen')).UploadScreen);

/** The tabbed shell. The tab lives in the URL (path or `?tab=`), so reload and back/forward keep it. */
export function DashboardShell({ fixedTab }: { fixedTab?: TabId }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const tab = fixedTab ?? resolveTab(params.get('tab'));
  const goTo = (id: TabId) => navigate(tabPath(id));

  return (
    <AppLayout activeTab={tab}>
      <ScreenSuspense>{renderTab(tab, params, goTo)}</ScreenSuspense>
    </AppLayout>
  );
}

function renderTab(tab: TabId | null, params: URLSearchParams, goTo: (id: TabId) => void) {
  switch (tab) {
    case 'dashboard':
      return <DashboardScreen onNavigate={goTo} />;
    case 'create-product':
      return (
        <CreateProductScreen
          step={params.get('step')}
          focus={params.get('focus')}
          designId={params.get('designId')}
          product={params.get('product')}
          category={params.get('category')}
          onProductCreated={() => goTo('my-products')}
        />
      );
    case 'upload':
      return <UploadScreen />;
    case 'products':
      return <ProductPickerScreen />;
    case 'ai-generator':
      return <AiGeneratorScreen />;
    case 'bulk':
      return <BulkScreen />;
    case 'my-products':
      return <MyProductsScreen />;
    case 'orders':
      return <OrdersScreen />;
    case 'integrations':
      return <IntegrationsScreen />;
    default:
      return (
        <div className="py-16 text-center">
          <p className="text-lg font-semibold">Tab not found</p>
        </div>
      );
  }
}
