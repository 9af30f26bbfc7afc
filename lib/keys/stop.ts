/**
 * How a key stopped working, kept as data (ApiKey.stopKind) so that nothing has to guess it from the
 * free-text reason, and what /mcp tells the holder of a stopped secret: the kind of stop and its date.
 * The reason typed by the owner or staff stays on the owner's and staff's pages: it may name a ticket,
 * a link or a person, and the holder of a stopped secret may be whoever found it. A new kind of stop
 * adds its name to STOP_KINDS and its sentence to REFUSALS, and nothing else changes.
 * No imports: the portal's client components read the kinds from here.
 */
export const STOP_KINDS = ['owner', 'support', 'leaked', 'operator', 'reissued'] as const;
export type StopKind = (typeof STOP_KINDS)[number];

/** The stop kinds a person chooses (a reissue sets 'reissued' itself). */
export type DisableKind = Exclude<StopKind, 'reissued'>;

/** Why a key that exists no longer works, as refused calls are counted per key (lib/usage/refused-calls.ts). */
export type StoppedReason = 'disabled' | 'expired' | 'replaced';

/**
 * How an access token (a key's further secret, KeySecret) can stop before its expiry while its key
 * works: its connection was disconnected by the key's owner or revoked by its client, ended because a
 * spent refresh token or authorization code came back (someone else may hold the connection's tokens), or
 * ended because the service's operator removed the client.
 */
export const TOKEN_END_KINDS = [
  'disconnected',
  'revoked',
  'refresh_reused',
  'code_replayed',
  'client_removed',
] as const;
export type TokenEndKind = (typeof TOKEN_END_KINDS)[number];

/**
 * A refusal's category: a stop kind, 'expired' (its expiry passed), an access token's end or
 * 'token_expired' (the key works, but the presented secret was one of its access tokens, and that
 * stopped), or 'disabled' for a key turned off with no kind recorded (a row changed by hand).
 */
type RefusalCategory = StopKind | TokenEndKind | 'expired' | 'token_expired' | 'disabled';

interface Refusal {
  /** How the refusal is counted for the key's owner. */
  counted: StoppedReason;
  /** The message's sentence, given the moment (ISO) the key stopped. */
  says: (at: string) => string;
}

const REFUSALS: Record<RefusalCategory, Refusal> = {
  owner: {
    counted: 'disabled',
    says: (at) => `API key disabled by its owner on ${at}. Create or reissue a key in the portal.`,
  },
  support: {
    counted: 'disabled',
    says: (at) =>
      `API key disabled by ChemFlow support on ${at}. Its owner can reissue it in the portal, or ask support why.`,
  },
  leaked: {
    counted: 'disabled',
    says: (at) =>
      `API key reported leaked on ${at}: its secret was seen where others could read it, so it no longer works. Its owner can reissue it in the portal.`,
  },
  operator: {
    counted: 'disabled',
    says: (at) => `API key disabled by the service's operator on ${at}. Its owner can reissue it in the portal.`,
  },
  reissued: {
    counted: 'replaced',
    says: (at) =>
      `API key replaced on ${at}: it was reissued, and only the new secret works. Use the new key (the portal shows it under the same name).`,
  },
  expired: {
    counted: 'expired',
    says: (at) => `API key expired on ${at}. Create a new key in the portal.`,
  },
  disconnected: {
    counted: 'disabled',
    says: (at) =>
      `Access token stopped on ${at}: the key's owner disconnected this app in the portal. Connect it again to use it.`,
  },
  revoked: {
    counted: 'disabled',
    says: (at) => `Access token revoked by its app on ${at}. Connect the app again to use it.`,
  },
  refresh_reused: {
    counted: 'disabled',
    says: (at) =>
      `Access token stopped on ${at}: a refresh token of this connection was used twice, so someone else may hold it. Connect the app again.`,
  },
  code_replayed: {
    counted: 'disabled',
    says: (at) =>
      `Access token stopped on ${at}: the authorization code that made this connection was used twice. Connect the app again.`,
  },
  client_removed: {
    counted: 'disabled',
    says: (at) =>
      `Access token stopped on ${at}: the service's operator removed this app, which ended its connections. Connect the app again (one the operator registered must be registered again first).`,
  },
  token_expired: {
    counted: 'expired',
    says: (at) =>
      `Access token expired on ${at}. Your MCP client gets a new one with its refresh token; if it cannot, connect it again.`,
  },
  disabled: {
    counted: 'disabled',
    says: (at) => `API key disabled on ${at}. Reissue it or create a new key in the portal.`,
  },
};

/** A stored KeySecret.endedHow as a category; anything else reads as revoked. */
export function tokenEndCategory(endedHow: string | null): TokenEndKind {
  return (TOKEN_END_KINDS as readonly string[]).includes(endedHow ?? '') ? (endedHow as TokenEndKind) : 'revoked';
}

/** A stored stopKind as a category; anything else (null, a value from a later version) reads as plainly disabled. */
export function stopCategory(stopKind: string | null): RefusalCategory {
  return (STOP_KINDS as readonly string[]).includes(stopKind ?? '') ? (stopKind as StopKind) : 'disabled';
}

/** The refusal for a key of `category` stopped at `at` (epoch ms): how it is counted, and its message. */
export function stoppedKeyRefusal(category: RefusalCategory, at: number): { counted: StoppedReason; message: string } {
  const refusal = REFUSALS[category];
  return { counted: refusal.counted, message: refusal.says(new Date(at).toISOString()) };
}
