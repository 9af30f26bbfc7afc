import type { ConversationContext } from './types.ts';

/** An absolute portal link for a reply, or null when the portal's public address (PUBLIC_URL) is not set. */
export function portalLink(context: ConversationContext, path: string): string | null {
  return context.portalUrl ? `${context.portalUrl}${path}` : null;
}
