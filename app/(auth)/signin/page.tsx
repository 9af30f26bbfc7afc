import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { SignInForm } from '@/components/AuthForm.tsx';
import { signIn } from '@/lib/auth/auth.ts';
import { githubConfigured } from '@/lib/auth/github.ts';
import { currentViewer } from '@/lib/portal/viewer.ts';
import { signInAction } from '../actions.ts';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string; error?: string }> }) {
  const { next = '/keys', error } = await searchParams;
  if (await currentViewer()) redirect(next.startsWith('/') && !next.startsWith('//') ? next : '/keys');
  return (
    <>
      <h1>Sign in</h1>
      {error && error !== 'CredentialsSignin' ? <p className="alert error" role="alert">Sign-in did not complete ({error}). Try again.</p> : null}
      <SignInForm action={signInAction} next={next} />
      {githubConfigured() ? (
        <form
          action={async () => {
            'use server';
            await signIn('github', { redirectTo: '/keys' });
          }}
          style={{ marginTop: '1rem' }}
        >
          <button type="submit" className="secondary">Sign in with GitHub</button>
        </form>
      ) : null}
      <p>New here? <Link href="/signup">Create an account</Link>; it takes a minute and your first key is free.</p>
    </>
  );
}
