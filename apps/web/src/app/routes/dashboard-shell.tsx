import { useNavigate, useSearchParams } from 'react-router';
import { AiGeneratorScreen } from '@/features/ai-generator/components/ai-generator-screen';
import { CreateProductScreen } from '@/features/create-product/components/create-product-screen';
import { DashboardScreen } from '@/features/dashboard/components/dashboard-screen';
import { IntegrationsScreen } from '@/features/integrations/components/integrations-screen';
import { MyProductsScreen } from '@/features/my-products/components/my-products-screen';
import { ProductPickerScreen } from '@/features/product-picker/components/product-picker-screen';
import { UploadScreen } from '@/features/upload/components/upload-screen';
import { AppLayout } from '../layout/app-layout';
import { resolveTab, type TabId, tabPath } from '../tabs';

/** The tabbed shell. The tab lives in the URL (path or `?tab=`), so reload and back/forward keep it. */
export function DashboardShell({ fixedTab }: { fixedTab?: TabId }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const tab = fixedTab ?? resolveTab(params.get('tab'));
  const goTo = (id: TabId) => navigate(tabPath(id));

  return <AppLayout activeTab={tab}>{renderTab(tab, params, goTo)}</AppLayout>;
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
          onProductCreated={() => goTo('my-products')}
        />
      );
    case 'upload':
      return <UploadScreen />;
    case 'products':
      return <ProductPickerScreen />;
    case 'ai-generator':
      return <AiGeneratorScreen />;
    case 'my-products':
      return <MyProductsScreen />;
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
