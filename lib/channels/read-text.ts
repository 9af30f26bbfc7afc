/**
 * What a follower typed, read as an intent. Words are recognised in Chinese and English whatever the
 * reply language (people type either), case and surrounding spaces ignored; a bind code alone is a bind.
 */
import { readBindCode } from './bindings.ts';
import type { Intent } from './types.ts';

/** Typed text that is none of the commands: answered with the help. */
type ReadText = Exclude<Intent, { kind: 'text' }> | { kind: 'help'; understood: boolean };

const WORDS: [RegExp, (rest: string) => ReadText][] = [
  [/^(?:绑定|bind\b)\s*(.*)$/is, (rest) => ({ kind: 'bind', code: rest })],
  [/^(?:解绑|解除绑定|unbind)$/i, () => ({ kind: 'unbind' })],
  [/^(?:新建|新密钥|new\s*key)$/i, () => ({ kind: 'new_key' })],
  [/^(?:专业版|升级|pro|upgrade|buy\s*pro)(?:\s+(.*))?$/is, (rest) => ({ kind: 'upgrade', details: rest ?? '' })],
  [
    /^(?:密钥与用量|密钥|用量|key|keys|my\s*key|my\s*key\s*(?:&|and)\s*usage)$/i,
    () => ({ kind: 'key_usage', part: 'all' }),
  ],
  [/^(?:usage|今日用量)$/i, () => ({ kind: 'key_usage', part: 'usage' })],
  [/^(?:联系客服|客服|联系|contact)$/i, () => ({ kind: 'contact' })],
  [/^(?:帮助|help|\?|？|菜单|menu|start)?$/i, () => ({ kind: 'help', understood: true })],
];

export function readText(typed: string): ReadText {
  const text = typed.trim().replace(/^\//, '');
  for (const [pattern, intent] of WORDS) {
    const match = pattern.exec(text);
    if (match) return intent((match[1] ?? '').trim());
  }
  if (readBindCode(text)) return { kind: 'bind', code: text };
  return { kind: 'help', understood: false };
}
