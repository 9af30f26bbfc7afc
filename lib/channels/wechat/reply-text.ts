/**
 * A reply cut to the door's limit. The conversation already writes replies that fit; this is the last
 * guard, because a passive reply over the platform's limit is not delivered at all.
 */
import type { ReplyLimit } from '../types.ts';

const MARK = '…';

/** `text` when it fits `limit`, else its longest prefix (whole code points) that fits with "…" after it. */
export function fitReply(text: string, limit: ReplyLimit): string {
  if (limit.measure(text) <= limit.max) return text;
  const points = [...text];
  let low = 0;
  let high = points.length;
  // The longest prefix whose cut form fits: measure grows with the prefix, so a binary search finds it.
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (limit.measure(points.slice(0, mid).join('') + MARK) <= limit.max) low = mid;
    else high = mid - 1;
  }
  return points.slice(0, low).join('') + MARK;
}
