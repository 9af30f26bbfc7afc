/**
 * The one rule for a key's name, whichever door names the key (portal forms, the CLI, the messaging
 * apps' fixed labels): 1 to KEY_NAME_MAX characters once trimmed. A longer name is refused with its length
 * and how much to cut, never shortened: a name cut without a word is a label its owner did not choose.
 * Characters are counted as people see them (code points), so an emoji counts once.
 */
export const KEY_NAME_MAX = 100;

export const KEY_NAME_MISSING =
  'Give the key a name of 1 to 100 characters that says where it is used, e.g. "laptop" or "CI".';

/** How many characters a name has, as a person counts them (a surrogate pair is one). */
export function keyNameLength(name: string): number {
  return [...name.trim()].length;
}

/** Why `name` cannot be a key's name, or null when it can. */
export function keyNameProblem(name: unknown): string | null {
  if (typeof name !== 'string' || !name.trim()) return KEY_NAME_MISSING;
  const length = keyNameLength(name);
  if (length <= KEY_NAME_MAX) return null;
  const over = length - KEY_NAME_MAX;
  return `The key name has ${length.toLocaleString('en-US')} characters; the limit is ${KEY_NAME_MAX}. Shorten it by ${over.toLocaleString('en-US')} character${over === 1 ? '' : 's'}.`;
}
