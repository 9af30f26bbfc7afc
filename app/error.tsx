'use client';
/** The error boundary for every page below the root layout (see components/PageUnavailable.tsx). */
import Link from 'next/link';
import { PageUnavailable } from '@/components/PageUnavailable.tsx';

export default function ErrorPage({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  return (
    <PageUnavailable
      heading="This page is unavailable right now"
      digest={error.digest}
      retry={retry}
      home={<Link href="/">Home</Link>}
    />
  );
}
