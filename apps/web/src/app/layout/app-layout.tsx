import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { TabId } from '../tabs';
import { Header } from './header';
import { Sidebar } from './sidebar';

export function AppLayout({ activeTab, children }: { activeTab: TabId | null; children: ReactNode }) {
  const navigate = useNavigate();
  return (
    <div className="min-h-full">
      <Header onOpenSettings={() => navigate('/integrations')} />
      <div className="mx-auto flex max-w-[1400px] flex-col gap-6 p-4 md:flex-row md:p-6">
        <Sidebar active={activeTab} />
        <main className="min-w-0 flex-1">{children}</main>
      </div>
    </div>
  );
}
