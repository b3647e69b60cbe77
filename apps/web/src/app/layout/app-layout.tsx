import { type ReactNode, Suspense, useState } from 'react';
import { useLiveUpdates } from '@/lib/live-updates';
import { lazyScreen } from '../lazy-screens';
import type { TabId } from '../tabs';
import { Header } from './header';
import { Sidebar } from './sidebar';

// The settings dialog (pricing settings, this month's credits) loads when it is first opened, then stays mounted.
const SettingsDialog = lazyScreen(async () => (await import('./settings-dialog')).SettingsDialog);

export function AppLayout({ activeTab, children }: { activeTab: TabId | null; children: ReactNode }) {
  useLiveUpdates();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [settingsUsed, setSettingsUsed] = useState(false);
  const openSettings = () => {
    setSettingsUsed(true);
    setSettingsOpen(true);
  };
  return (
    <div className="min-h-full">
      <Header onOpenSettings={openSettings} />
      {settingsUsed && (
        <Suspense fallback={null}>
          <SettingsDialog open={settingsOpen} onClose={() => setSettingsOpen(false)} />
        </Suspense>
      )}
      <div className="mx-auto flex max-w-[1400px] flex-col gap-6 p-4 md:flex-row md:p-6">
        <Sidebar active={activeTab} />
        <main className="min-w-0 flex-1">{children}</main>
      </div>
    </div>
  );
}
