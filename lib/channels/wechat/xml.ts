/**
 * The platform's XML, both ways. Incoming bodies are untrusted: a DOCTYPE is refused outright (no
 * external entities, no billion laughs), the parser expands no entities at all (the platform sends text
 * in CDATA sections, which need none) and keeps every value a string (a MsgId is wider than a double).
 * Replies are built by hand from CDATA sections, the form the platform's samples use.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** Why a body is not a message we can read; the reason is for the log, never the sender. */
export class WechatXmlError extends Error {}

const parser = new XMLParser({
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

/** The top-level text fields of an `<xml>…</xml>` document; nested elements (e.g. ScanCodeInfo) are left out. */
export function parseWechatXml(text: string): Record<string, string> {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new WechatXmlError('DOCTYPE or ENTITY declaration');
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new WechatXmlError(`not well-formed XML: ${valid.err.msg}`);
  let document: Record<string, unknown>;
  try {
    document = parser.parse(text);
  } catch (error) {
    throw new WechatXmlError(`unreadable XML: ${(error as Error).message}`);
  }
  const root = document.xml;
  if (Object.keys(document).length !== 1 || typeof root !== 'object' || root === null || Array.isArray(root))
    throw new WechatXmlError('the document is not one <xml> element with fields');
  const fields: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(root)) if (typeof value === 'string') fields[name] = value;
  return fields;
}

/** Characters XML 1.0 allows nowhere, not even in CDATA: a reply holding one would not parse. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point: they are dropped
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/**
 * A CDATA section holding `text`, less the characters XML forbids; a "]]>" inside is split across two
 * sections so it cannot close the first.
 */
export function cdata(text: string): string {
  return `<![CDATA[${text.replace(NOT_XML, '').replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}

/** A passive text reply (被动回复 文本消息). */
export function textReplyXml(reply: { toUser: string; fromUser: string; createTime: number; content: string }): string {
  return (
    `<xml><ToUserName>${cdata(reply.toUser)}</ToUserName><FromUserName>${cdata(reply.fromUser)}</FromUserName>` +
    `<CreateTime>${reply.createTime}</CreateTime><MsgType>${cdata('text')}</MsgType>` +
    `<Content>${cdata(reply.content)}</Content></xml>`
  );
}

/** Safe mode's reply envelope around an encrypted reply. */
export function encryptedReplyXml(reply: { encrypt: string; signature: string; timestamp: string; nonce: string }) {
  return (
    `<xml><Encrypt>${cdata(reply.encrypt)}</Encrypt><MsgSignature>${cdata(reply.signature)}</MsgSignature>` +
    `<TimeStamp>${reply.timestamp}</TimeStamp><Nonce>${cdata(reply.nonce)}</Nonce></xml>`
  );
}
