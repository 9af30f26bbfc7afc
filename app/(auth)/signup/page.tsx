import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { SignUpForm } from '@/components/AuthForm.tsx';
import { currentViewer } from '@/lib/portal/viewer.ts';
import { signUpAction } from '../actions.ts';

export const metadata: Metadata = { title: 'Create an account' };

export default async function SignUpPage() {
  if (await currentViewer()) redirect('/keys');
  return (
    <>
      <h1>Create an account</h1>
      <p className="muted">
        Developers create and manage their API keys here. Free keys allow 1 call per second and 1,000 calls per day.
      </p>
      <SignUpForm action={signUpAction} />
      <p>
        Already have an account? <Link href="/signin">Sign in</Link>.
      </p>
    </>
  );
}
