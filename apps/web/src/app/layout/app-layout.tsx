import { type ReactNode, useState } from 'react';
import type { TabId } from '../tabs';
import { Header } from './header';
import { SettingsDialog } from './settings-dialog';
import { Sidebar } from './sidebar';

export function AppLayout({ activeTab, children }: { activeTab: TabId | null; children: ReactNode }) {
  const [settingsOpen, setSettingsOpen] = useState(false);
  return (
    <div className="min-h-full">
      <Header onOpenSettings={() => setSettingsOpen(true)} />
      <SettingsDialog open={settingsOpen} onClose={() => setSettingsOpen(false)} />
      <div className="mx-auto flex max-w-[1400px] flex-col gap-6 p-4 md:flex-row md:p-6">
        <Sidebar active={activeTab} />
        <main className="min-w-0 flex-1">{children}</main>
      </div>
    </div>
  );
}
