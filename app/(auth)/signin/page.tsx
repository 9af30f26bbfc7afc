import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { SignInForm } from '@/components/AuthForm.tsx';
import { signIn } from '@/lib/auth/auth.ts';
import { githubConfigured } from '@/lib/auth/github.ts';
import { DEFAULT_RETURN_PATH, landingPath, safeReturnPath } from '@/lib/auth/return-path.ts';
import { SIGNED_UP_MESSAGE, SIGNED_UP_NOTICE } from '@/lib/auth/sign-up-notice.ts';
import { signedUpEmail } from '@/lib/auth/signed-up-email.ts';
import { currentViewer } from '@/lib/portal/viewer.ts';
import { signInAction } from '../actions.ts';

export const metadata: Metadata = { title: 'Sign in' };

type Params = { next?: string | string[]; error?: string; notice?: string };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Params> }) {
  const params = await searchParams;
  // No return path of the visitor's own: '' lets sign-in land where the account's work is (landingPath).
  const next = typeof params.next === 'string' && params.next ? safeReturnPath(params.next) : '';
  // Auth.js names what went wrong with a short code (AccessDenied, OAuthCallbackError…); anything else in
  // the address is someone's text, not ours to show.
  const error =
    typeof params.error === 'string' && /^[A-Za-z]{1,40}$/.test(params.error)
      ? params.error
      : params.error
        ? 'unknown'
        : undefined;
  const viewer = await currentViewer();
  if (viewer) redirect(next || landingPath(viewer.role));
  const signedUp = params.notice === SIGNED_UP_NOTICE;
  return (
    <>
      <h1>Sign in</h1>
      {signedUp ? (
        <p className="alert success" role="status">
          {SIGNED_UP_MESSAGE}
        </p>
      ) : null}
      {error && error !== 'CredentialsSignin' ? (
        <p className="alert error" role="alert">
          Sign-in did not complete ({error}). Try again.
        </p>
      ) : null}
      <SignInForm action={signInAction} next={next} email={signedUp ? await signedUpEmail() : ''} />
      {githubConfigured() ? (
        <form
          action={async () => {
            'use server';
            await signIn('github', { redirectTo: next || DEFAULT_RETURN_PATH });
          }}
          style={{ marginTop: '1rem' }}
        >
          <button type="submit" className="secondary">
            Sign in with GitHub
          </button>
        </form>
      ) : null}
      <p>
        New here? <Link href="/signup">Create an account</Link>; it takes a minute and your first key is free.
      </p>
    </>
  );
}
