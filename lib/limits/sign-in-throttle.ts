/**
 * Failed sign-ins are throttled so that guessing is slow and nobody can lock someone else out:
 * - 5 failures for one email from one client address within 15 minutes lock that pair: a guesser from
 *   one address locks only himself;
 * - 20 failures from one address (any emails) within 15 minutes lock that address;
 * - 10 failures for one email from all addresses together within 15 minutes lock that email, except for
 *   a browser that has signed in to the account before (a valid device cookie, device-cookie.ts): a
 *   guesser with many addresses is slowed down, and the owner still signs in from a known browser.
 * A correct password clears the pair's count. The answer stays generic, so a lock reveals nothing
 * about whether the account exists. In the shared mode the counts live in Redis, so a lock holds on
 * every instance (lib/limits/attempt-counter.ts).
 */
import { attemptCounter } from './attempt-counter.ts';

const WINDOW_MS = 15 * 60_000;
const byPair = () => attemptCounter('sign-in-email-address', 5, WINDOW_MS);
const byAddress = () => attemptCounter('sign-in-address', 20, WINDOW_MS);
const byEmail = () => attemptCounter('sign-in-email', 10, WINDOW_MS);

/** One key per (email, address); a newline cannot occur in a normalised email. */
const pair = (email: string, address: string) => `${email}\n${address}`;

interface SignInContext {
  /** The request comes from a browser that has signed in to this account before: no per-email back-off. */
  knownDevice?: boolean;
}

/** Milliseconds until this email may try again from this address (0: now). */
export async function signInWait(email: string, address: string, context: SignInContext = {}): Promise<number> {
  const waits = await Promise.all([
    byPair().retryAfterMs(pair(email, address)),
    byAddress().retryAfterMs(address),
    context.knownDevice ? 0 : byEmail().retryAfterMs(email),
  ]);
  return Math.max(...waits);
}

export async function recordSignInFailure(email: string, address: string): Promise<void> {
  await Promise.all([byPair().record(pair(email, address)), byAddress().record(address), byEmail().record(email)]);
}

/**
 * A correct password clears the pair's count only: the per-email count is the other addresses' guesses,
 * which one right answer from here does not excuse.
 */
export async function recordSignInSuccess(email: string, address: string): Promise<void> {
  await byPair().clear(pair(email, address));
}
