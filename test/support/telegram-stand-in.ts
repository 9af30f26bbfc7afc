/**
 * A local stand-in for the Telegram Bot API (https://core.telegram.org/bots/api), which tests cannot
 * reach: a node:http server answering POST/GET /bot<token>/<method> as the documented API does for the
 * methods the bot and the CLI use (getMe, sendMessage, setWebhook, setMyCommands), with parameters as
 * JSON, form fields or query string. It records every call with the right token. A wrong token gets the documented
 * 401, an unknown method 404, and a message to a chat in `blocked` the 403 a user who blocked the bot gives.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInCall {
  method: string;
  params: Record<string, unknown>;
  /** The HTTP status the stand-in answered with (200: accepted). */
  status: number;
}

export interface TelegramStandIn {
  /** TELEGRAM_API_ROOT for the server and the CLI. */
  apiRoot: string;
  token: string;
  /** The bot as getMe describes it. */
  botInfo: { id: number; is_bot: true; first_name: string; username: string };
  /** Calls with the right token, accepted or refused, oldest first (`method` given: only those). */
  calls: (method?: string) => StandInCall[];
  /** Chat ids whose user blocked the bot: sendMessage to them is refused with 403. */
  blocked: Set<string>;
  close: () => Promise<void>;
}

const MAX_TEXT = 4096;
/** Bot API command names: 1-32 characters of a-z, 0-9 and "_"; descriptions 1-256 characters. */
const COMMAND_NAME = /^[a-z0-9_]{1,32}$/;

type Answer = { status: number; body: object };
const ok = (result: unknown): Answer => ({ status: 200, body: { ok: true, result } });
const fail = (status: number, description: string): Answer => ({
  status,
  body: { ok: false, error_code: status, description },
});

async function readParams(req: IncomingMessage, url: URL): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const type = req.headers['content-type']?.split(';', 1)[0].trim();
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
  if (type === 'application/json' && text) Object.assign(params, JSON.parse(text));
  if (type === 'application/x-www-form-urlencoded')
    Object.assign(params, Object.fromEntries(new URLSearchParams(text)));
  return params;
}

/** A structured parameter as the API takes it: a JSON value, or its serialisation in a form field. */
function structured(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

export async function startTelegramStandIn(token = '123456789:TEST-stand-in_token'): Promise<TelegramStandIn> {
  const botInfo = {
    id: Number(token.split(':')[0]),
    is_bot: true as const,
    first_name: 'ChemFlow',
    username: 'chemflow_test_bot',
  };
  const calls: StandInCall[] = [];
  const blocked = new Set<string>();
  let nextMessageId = 1;

  const methods: Record<string, (params: Record<string, unknown>) => Answer> = {
    getMe: () =>
      ok({ ...botInfo, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false }),
    sendMessage(params) {
      const chatId = params.chat_id;
      const text = params.text;
      if (chatId === undefined || chatId === '') return fail(400, 'Bad Request: chat_id is empty');
      if (typeof text !== 'string' || !text.trim()) return fail(400, 'Bad Request: message text is empty');
      if (text.length > MAX_TEXT) return fail(400, 'Bad Request: message is too long');
      if (blocked.has(String(chatId))) return fail(403, 'Forbidden: bot was blocked by the user');
      const id = Number(chatId);
      return ok({
        message_id: nextMessageId++,
        from: botInfo,
        chat: id > 0 ? { id, type: 'private', first_name: 'Follower' } : { id, type: 'group', title: 'Group' },
        date: Math.floor(Date.now() / 1000),
        text,
      });
    },
    setWebhook(params) {
      const url = params.url;
      if (typeof url !== 'string' || !url) return fail(400, 'Bad Request: bad webhook: URL must be non-empty');
      if (!url.startsWith('https://'))
        return fail(400, 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook');
      const secret = params.secret_token;
      if (secret !== undefined && (typeof secret !== 'string' || !/^[A-Za-z0-9_-]{1,256}$/.test(secret)))
        return fail(400, 'Bad Request: secret token contains unallowed characters');
      return { status: 200, body: { ok: true, result: true, description: 'Webhook was set' } };
    },
    setMyCommands(params) {
      const commands = structured(params.commands);
      if (!Array.isArray(commands)) return fail(400, "Bad Request: can't parse commands JSON object");
      const valid = commands.every(
        (c) =>
          typeof c?.command === 'string' &&
          COMMAND_NAME.test(c.command) &&
          typeof c.description === 'string' &&
          c.description.length >= 1 &&
          c.description.length <= 256,
      );
      return valid ? ok(true) : fail(400, 'Bad Request: BOT_COMMAND_INVALID');
    },
  };

  async function answer(req: IncomingMessage): Promise<Answer> {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    if (!match) return fail(404, 'Not Found');
    const [, sentToken, method] = match;
    if (sentToken !== token) return fail(401, 'Unauthorized');
    const handler = Object.hasOwn(methods, method) ? methods[method] : undefined;
    if (!handler) return fail(404, 'Not Found');
    let params: Record<string, unknown>;
    try {
      params = await readParams(req, url);
    } catch {
      return fail(400, "Bad Request: can't parse JSON object");
    }
    const result = handler(params);
    calls.push({ method, params, status: result.status });
    return result;
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    answer(req).then(({ status, body }) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    apiRoot: `http://127.0.0.1:${port}`,
    token,
    botInfo,
    calls: (method) => calls.filter((c) => method === undefined || c.method === method),
    blocked,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
