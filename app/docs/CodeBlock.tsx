/**
 * A snippet in a <figure> whose caption is its accessible name, with a copy button beside the caption
 * and a <pre> that keyboard users can focus to scroll long lines sideways.
 */
import { CopyButton } from '@/components/CopyButton.tsx';

export function CodeBlock({ caption, code, copy = true }: { caption: string; code: string; copy?: boolean }) {
  return (
    <figure className="code-block">
      <figcaption>{caption}</figcaption>
      {copy ? <CopyButton text={code} label="Copy" name={`Copy ${caption}`} /> : null}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long line scrolls sideways, and keyboard users can only scroll what they can focus (WCAG 2.1.1) */}
      <pre tabIndex={0}>
        <code>{code}</code>
      </pre>
    </figure>
  );
}
