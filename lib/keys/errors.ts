/** The key store's refusals, each with a code and a message for the person acting. */
export class KeyStoreError extends Error {
  constructor(
    readonly code: 'not_found' | 'already_disabled' | 'replaced' | 'not_disabled' | 'invalid' | 'daily_cap',
    message: string,
  ) {
    super(message);
  }
}
