/** Every /support page: staff only (others get 404, signed-out visitors sign in first), with the sub-navigation. */
import type { ReactNode } from 'react';
import { SupportNav } from '@/components/support/SupportNav.tsx';
import { requireStaffViewer } from '@/lib/portal/viewer.ts';
import '@/components/support/support.css';

export default async function SupportLayout({ children }: { children: ReactNode }) {
  await requireStaffViewer('/support');
  return (
    <>
      <SupportNav />
      {children}
    </>
  );
}
