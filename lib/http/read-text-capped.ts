/**
 * Reads a Web Request's body as text, giving up past `limit` bytes: first on the declared
 * Content-Length, then while reading (a client may send more than it declared, or declare nothing).
 * Used by the leak-report endpoint; /mcp reads node:http bodies itself (lib/mcp/node-request.ts).
 */
/** Returned instead of text once the body exceeds the limit: a symbol, so no body's text can be mistaken for it. */
export const TOO_LARGE: unique symbol = Symbol('body too large');

export async function readTextCapped(
  request: Request,
  limit: number,
  { fatal = false } = {},
): Promise<string | typeof TOO_LARGE> {
  if (Number(request.headers.get('content-length')) > limit) return TOO_LARGE;
  if (!request.body) return '';
  const reader = request.body.getReader();
  // fatal: malformed UTF-8 throws instead of becoming U+FFFD (for callers that answer it with a 400).
  const decoder = new TextDecoder('utf-8', { fatal });
  let text = '';
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return TOO_LARGE;
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}
