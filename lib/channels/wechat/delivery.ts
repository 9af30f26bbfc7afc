/**
 * POST: a message or event from the platform, answered with a passive reply (a text message) or
 * "success". In order: the query's signature and timestamp (refused, 403, when wrong or stale); the
 * body, capped; the signed query, claimed for this body before anything else (signed-once.ts: a captured
 * signature cannot carry another body, whatever the first one was, and a GET's never signs a POST); the
 * body parsed without entities (hostile or unreadable: "success" and a log line); in safe mode
 * msg_signature over the Encrypt text, then the decryption and its AppID (403 when wrong); and the
 * delivery id, claimed once so the platform's retries are acted on once and get the first answer.
 *
 * The platform waits 5 s for the answer. A reply not ready within REPLY_DEADLINE_MS is answered
 * "success" and sent when ready as a customer-service message (when WECHAT_APP_SECRET is set).
 */
import type { Db } from '../../db/client.ts';
import { bodyCapFor } from '../../http/body-caps.ts';
import { readTextCapped, TOO_LARGE } from '../../http/read-text-capped.ts';
import { errorText, log } from '../../ops/log.ts';
import { conversationContext } from '../context.ts';
import { converse as realConverse } from '../conversation.ts';
import { type Answered, answerOnce } from '../deliveries.ts';
import { WECHAT_REPLY_LIMIT } from '../types.ts';
import { sendText } from './api.ts';
import { decryptMessage, encryptMessage, WechatCryptoError } from './crypto.ts';
import { type Inbound, readInbound } from './inbound.ts';
import { fitReply } from './reply-text.ts';
import { notActedOn, refused, success, xmlReply } from './responses.ts';
import type { WechatSettings } from './settings.ts';
import { isFresh, signatureMatches, wechatSignature } from './signature.ts';
import { claimSignedQuery } from './signed-once.ts';
import { encryptedReplyXml, parseWechatXml, textReplyXml, WechatXmlError } from './xml.ts';

/** Leaves a second of the platform's 5 s for the answer to travel. */
const REPLY_DEADLINE_MS = 4000;
/** The platform's nonces are digits; anything printable and short is accepted, as it keys a claim. */
const NONCE = /^[\x21-\x7e]{1,64}$/;

interface DeliveryOptions {
  db: Db;
  settings: WechatSettings;
  /** The conversation; tests pass a slow one to reach the late path. */
  converse?: typeof realConverse;
  replyDeadlineMs?: number;
  now?: number;
}

type Answer = { kind: 'reply'; text: string } | { kind: 'late'; work: Promise<Answered> } | { kind: 'none' };

/** The message's fields (decrypted in safe mode), or the response that ends the request. */
function readBody(body: string, settings: WechatSettings, query: URLSearchParams): Record<string, string> | Response {
  let fields: Record<string, string>;
  try {
    fields = parseWechatXml(body);
  } catch (error) {
    if (error instanceof WechatXmlError) return notActedOn(error.message);
    throw error;
  }
  if (!settings.crypto)
    return fields.Encrypt && !fields.MsgType
      ? notActedOn('encrypted message: set WECHAT_ENCODING_AES_KEY and WECHAT_APP_ID for safe mode')
      : fields;
  const encrypted = fields.Encrypt;
  if (!encrypted) return notActedOn('safe mode message without Encrypt');
  const timestamp = query.get('timestamp')!;
  const nonce = query.get('nonce')!;
  if (!signatureMatches(query.get('msg_signature'), settings.token, timestamp, nonce, encrypted))
    return refused('POST', 'bad msg_signature');
  let inner: string;
  try {
    inner = decryptMessage(settings.crypto.aesKey, settings.crypto.appId, encrypted);
  } catch (error) {
    if (error instanceof WechatCryptoError) return refused('POST', `undecryptable: ${error.message}`);
    throw error;
  }
  try {
    return parseWechatXml(inner);
  } catch (error) {
    if (error instanceof WechatXmlError) return notActedOn(`decrypted ${error.message}`);
    throw error;
  }
}

/** The reply text in time, or the work still under way once the deadline passes. */
async function answerInTime(options: DeliveryOptions, inbound: Extract<Inbound, { kind: 'answer' }>): Promise<Answer> {
  const converse = options.converse ?? realConverse;
  const work = answerOnce(options.db, 'wechat', inbound.deliveryId, async () =>
    fitReply(
      await converse(conversationContext(options.db, 'wechat'), inbound.follower, inbound.intent),
      WECHAT_REPLY_LIMIT,
    ),
  );
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), options.replyDeadlineMs ?? REPLY_DEADLINE_MS);
  });
  try {
    const first = await Promise.race([work, deadline]);
    if (first === 'late') return { kind: 'late', work };
    // A retry while the first delivery is still being answered gets null: that delivery answers.
    return first.reply ? { kind: 'reply', text: first.reply } : { kind: 'none' };
  } finally {
    clearTimeout(timer);
  }
}

/** Sends a reply that missed the passive reply's deadline once it is ready. */
function deliverLate(work: Promise<Answered>, settings: WechatSettings, openId: string): void {
  work
    .then(async (answered) => {
      if (answered.repeated || !answered.reply) return;
      if (!settings.api) {
        log('warn', 'wechat reply ready after the deadline; not sent: WECHAT_APP_SECRET is unset');
        return;
      }
      await sendText(openId, answered.reply, settings.api);
      log('info', 'wechat late reply sent as a customer-service message');
    })
    .catch((error) => log('error', 'wechat late reply failed', { error: errorText(error) }));
}

function replyResponse(
  settings: WechatSettings,
  query: URLSearchParams,
  inbound: Extract<Inbound, { kind: 'answer' }>,
  text: string,
  now: number,
): Response {
  const xml = textReplyXml({
    toUser: inbound.follower.id,
    fromUser: inbound.account,
    createTime: Math.floor(now / 1000),
    content: text,
  });
  if (!settings.crypto) return xmlReply(xml);
  // The platform's samples answer with the request's timestamp and nonce.
  const timestamp = query.get('timestamp')!;
  const nonce = query.get('nonce')!;
  const encrypt = encryptMessage(settings.crypto.aesKey, settings.crypto.appId, xml);
  const signature = wechatSignature(settings.token, timestamp, nonce, encrypt);
  return xmlReply(encryptedReplyXml({ encrypt, signature, timestamp, nonce }));
}

export async function answerDelivery(request: Request, options: DeliveryOptions): Promise<Response> {
  const { db, settings } = options;
  const now = options.now ?? Date.now();
  const query = new URL(request.url).searchParams;
  const timestamp = query.get('timestamp');
  const nonce = query.get('nonce') ?? '';
  const signature = query.get('signature');
  if (!isFresh(timestamp, now)) return refused('POST', 'stale or missing timestamp');
  if (!NONCE.test(nonce)) return refused('POST', 'missing or malformed nonce');
  if (!signatureMatches(signature, settings.token, timestamp!, nonce)) return refused('POST', 'bad signature');

  try {
    const cap = bodyCapFor('/api/channels/wechat').bytes;
    const body = await readTextCapped(request, cap);
    const signed = { timestamp: timestamp!, nonce, signature: signature! };
    if (!(await claimSignedQuery(db, signed, { method: 'POST', body: body === TOO_LARGE ? null : body })))
      return refused('POST', 'signature already used for another request');
    // Without safe mode's settings an encrypted delivery is read as plain: compatibility mode's carries
    // the plain fields too, and safe mode's lack them (and are logged as such).
    if (settings.crypto && query.get('encrypt_type') !== 'aes')
      return refused('POST', 'plain message while safe mode is configured');
    if (body === TOO_LARGE) return notActedOn(`body over ${cap} bytes`);
    const fields = readBody(body, settings, query);
    if (fields instanceof Response) return fields;
    const inbound = readInbound(fields);
    if (inbound.kind === 'ignored') return notActedOn(inbound.reason, 'info');
    if (inbound.kind === 'silent') return notActedOn(inbound.what, 'info');

    const answer = await answerInTime(options, inbound);
    if (answer.kind === 'late') {
      deliverLate(answer.work, settings, inbound.follower.id);
      return success();
    }
    return answer.kind === 'reply' ? replyResponse(settings, query, inbound, answer.text, now) : success();
  } catch (error) {
    log('error', 'wechat delivery failed', { error: errorText(error) });
    return success();
  }
}
