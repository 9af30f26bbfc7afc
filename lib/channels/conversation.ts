/**
 * What the account answers, whichever door a follower comes through. (First cut: the lead is writing the
 * full replies; the signature is fixed.)
 */
import type { ConversationContext, Follower, Intent } from './types.ts';

export async function converse(context: ConversationContext, follower: Follower, intent: Intent): Promise<string> {
  void context;
  void follower;
  return intent.kind;
}
