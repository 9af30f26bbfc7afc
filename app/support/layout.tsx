/**
 * Every /support page: staff only, with the sub-navigation. Signed-in non-staff get 404 here; signed-out
 * visitors are sent to sign in by the page itself, which knows its own path to come back to. Each page
 * checks again: a layout's check alone does not guard a page's data loading.
 */
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { SupportNav } from '@/components/support/SupportNav.tsx';
import { isStaff } from '@/lib/portal/access.ts';
import { currentViewer } from '@/lib/portal/viewer.ts';
import '@/components/support/support.css';

export default async function SupportLayout({ children }: { children: ReactNode }) {
  const viewer = await currentViewer();
  if (viewer && !isStaff(viewer)) notFound();
  return (
    <>
      {viewer ? <SupportNav /> : null}
      {children}
    </>
  );
}
