/**
 * Failed sign-ins are throttled per account and per client address: 5 failures for one email, or 20 from
 * one address, within 15 minutes lock further attempts until the oldest failure leaves the window. A
 * correct password clears the account's count. The answer stays generic, so the lock reveals nothing
 * about whether the account exists. In the shared mode the counts live in Redis, so a lock holds on
 * every instance (lib/limits/attempt-counter.ts).
 */
import { attemptCounter } from '../limits/attempt-counter.ts';

const WINDOW_MS = 15 * 60_000;
const byEmail = () => attemptCounter('sign-in-email', 5, WINDOW_MS);
const byAddress = () => attemptCounter('sign-in-address', 20, WINDOW_MS);

/** Milliseconds until this email may try again from this address (0: now). */
export async function signInWait(email: string, address: string): Promise<number> {
  const waits = await Promise.all([byEmail().retryAfterMs(email), byAddress().retryAfterMs(address)]);
  return Math.max(...waits);
}

export async function recordSignInFailure(email: string, address: string): Promise<void> {
  await Promise.all([byEmail().record(email), byAddress().record(address)]);
}

export async function recordSignInSuccess(email: string): Promise<void> {
  await byEmail().clear(email);
}
