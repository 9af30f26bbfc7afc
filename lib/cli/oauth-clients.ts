/**
 * `cli oauth-client add|list|remove`: the OAuth clients of /mcp as the operator manages them
 * (lib/oauth/operator-clients.ts). `add` registers a client the operator vouches for (a desktop app with
 * a custom-scheme redirect URI, or a confidential web client, whose secret is printed once); `list` shows
 * the operator's clients (--all: the self-registered ones too); `remove` ends a client's connections.
 */
import { parseArgs } from 'node:util';
import { CLI_ACTOR } from '../audit/write.ts';
import type { Db } from '../db/client.ts';
import { OperatorClientError } from '../oauth/operator-client-error.ts';
import { addOperatorClient, type ClientListing, listClients, removeClient } from '../oauth/operator-clients.ts';

type Usage = (message: string) => Error;

const ADD_OPTIONS = {
  name: { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  'logo-uri': { type: 'string' },
  'client-uri': { type: 'string' },
  confidential: { type: 'boolean' },
} as const;

const LIST_OPTIONS = { all: { type: 'boolean' } } as const;

function readArgs<O extends NonNullable<Parameters<typeof parseArgs>[0]>['options']>(
  args: string[],
  options: O,
  usage: Usage,
) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw usage((error as Error).message);
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Text a client chose (a self-registered client's name and URIs come from anyone) with its control and
 * format characters written as \u{…} escapes, so that nothing it holds can drive or reorder the
 * operator's terminal.
 */
const printable = (text: string) =>
  text.replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);

/** `usage` makes the error run.ts answers with the usage text and exit code 2. */
export async function oauthClientAdd(db: Db, args: string[], usage: Usage): Promise<void> {
  const { values, positionals } = readArgs(args, ADD_OPTIONS, usage);
  if (positionals.length) throw usage(`Unexpected argument "${positionals[0]}".`);
  const redirectUris = values['redirect-uri'] ?? [];
  if (!values.name?.trim() || redirectUris.length === 0)
    throw usage(
      'oauth-client add needs --name (shown to people when they connect the app) and at least one --redirect-uri.',
    );
  let added: Awaited<ReturnType<typeof addOperatorClient>>;
  try {
    added = await addOperatorClient(
      db,
      {
        name: values.name,
        redirectUris,
        logoUri: values['logo-uri'],
        clientUri: values['client-uri'],
        confidential: Boolean(values.confidential),
      },
      CLI_ACTOR,
    );
  } catch (error) {
    // Metadata the rules refuse is the operator's input to correct, as a usage error.
    if (error instanceof OperatorClientError && error.code === 'invalid') throw usage(error.message);
    throw error;
  }
  const kind = added.secret
    ? 'confidential, authenticates with HTTP Basic (client_secret_basic)'
    : 'public, PKCE without a secret';
  console.log(
    `Added OAuth client "${printable(added.name)}" (${kind}); redirect URIs: ${added.redirectUris.map(printable).join(', ')}.`,
  );
  console.log(`Client id: ${added.id}`);
  if (added.secret) console.log(`Client secret (shown once, store it now; only its HMAC is kept): ${added.secret}`);
}

function describe(client: ClientListing): string {
  const method =
    client.tokenEndpointAuthMethod === 'none' ? 'public' : `confidential (${client.tokenEndpointAuthMethod})`;
  const by = client.registeredBy === 'operator' ? 'registered by the operator' : 'self-registered';
  return [
    `${printable(client.id)} "${printable(client.name)}": ${by}, ${method}, ${plural(client.liveConnections, 'live connection')}`,
    `  Redirect URIs: ${client.redirectUris.map(printable).join(', ')}`,
    `  Created ${client.createdAt.toISOString()}, first used ${client.firstUsedAt?.toISOString() ?? 'never'}`,
  ].join('\n');
}

export async function oauthClientList(db: Db, args: string[], usage: Usage): Promise<void> {
  const { values, positionals } = readArgs(args, LIST_OPTIONS, usage);
  if (positionals.length) throw usage(`Unexpected argument "${positionals[0]}".`);
  const clients = await listClients(db, { registeredBy: values.all ? 'all' : 'operator' });
  if (!clients.length) {
    console.log(
      values.all
        ? 'No OAuth clients.'
        : 'No OAuth clients registered by the operator (--all lists self-registered ones too).',
    );
    return;
  }
  console.log(clients.map(describe).join('\n'));
}

export async function oauthClientRemove(db: Db, args: string[], usage: Usage): Promise<void> {
  const { positionals } = readArgs(args, {}, usage);
  if (positionals.length !== 1) throw usage('oauth-client remove needs exactly one client id ("oauth-client list").');
  const removed = await removeClient(db, positionals[0], CLI_ACTOR);
  console.log(
    `Removed OAuth client ${printable(removed.id)} "${printable(removed.name)}"; ended ${plural(removed.connectionsEnded, 'live connection')} and ${plural(removed.tokensEnded, 'access token')} that still worked.`,
  );
}
