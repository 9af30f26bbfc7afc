/**
 * Failed sign-ins are throttled per account and per client address: 5 failures for one email, or 20 from
 * one address, within 15 minutes lock further attempts until the oldest failure leaves the window. A
 * correct password clears the account's count. The answer stays generic, so the lock reveals nothing
 * about whether the account exists.
 */
import { AttemptWindow } from '../limits/attempt-window.ts';

const WINDOW_MS = 15 * 60_000;
const byEmail = new AttemptWindow(5, WINDOW_MS);
const byAddress = new AttemptWindow(20, WINDOW_MS);

/** Milliseconds until this email may try again from this address (0: now). */
export function signInWait(email: string, address: string, now = Date.now()): number {
  return Math.max(byEmail.retryAfterMs(email, now), byAddress.retryAfterMs(address, now));
}

export function recordSignInFailure(email: string, address: string, now = Date.now()): void {
  byEmail.record(email, now);
  byAddress.record(address, now);
}

export function recordSignInSuccess(email: string): void {
  byEmail.clear(email);
}
