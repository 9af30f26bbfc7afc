/**
 * What the /mcp handler reads from a request and what it answers; server.ts adapts node:http to it
 * (node-request.ts). Plain objects rather than Web Request/Response: building those per call cost ~60 µs.
 */
import { TOO_LARGE } from '../http/read-text-capped.ts';

/** Header lookup by lower-case name; a Web `Headers` is one. */
export interface HeaderReader {
  get(name: string): string | null;
}

export { TOO_LARGE };
/** Returned instead of text when the body's bytes are not UTF-8. */
export const INVALID_UTF8: unique symbol = Symbol('body not UTF-8');
/** Symbols, not strings, so that no body's text can pass for either signal. */
export type BodyText = string | typeof TOO_LARGE | typeof INVALID_UTF8;

export interface McpRequest {
  readonly method: string;
  /** The absolute URL the client called. */
  readonly url: string;
  readonly headers: HeaderReader;
  /**
   * The client's address as server.ts saw it (X-Forwarded-For under TRUST_PROXY=1), by which failed key
   * authentications are throttled; undefined when the adapter knows none.
   */
  readonly clientAddress: string | undefined;
  /**
   * The body as text; TOO_LARGE once it exceeds `limit` bytes; INVALID_UTF8 when its bytes are not
   * UTF-8 (decoded strictly, never patched with U+FFFD). Read at most once.
   */
  readText(limit: number): Promise<BodyText>;
  /** The request as a body-less Web Request, for the SDK's transport (which is handed the parsed body). */
  toWebRequest(): Request;
}

export interface McpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}
