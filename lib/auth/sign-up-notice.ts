/** The sign-in page's `notice` after any sign-up, and what it shows: true for a new and an existing email alike. */
export const SIGNED_UP_NOTICE = 'signed-up';
export const SIGNED_UP_MESSAGE =
  'If that email was new, its account is ready: sign in with it. If you already had an account, its password is unchanged.';
