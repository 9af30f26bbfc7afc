'use client';
/**
 * Copies text to the clipboard and says so in a status line (announced to screen readers). Where the
 * browser refuses (no permission, an insecure origin), it selects `target` on the page instead, when the
 * caller has one, and says to press Ctrl+C, so copying never silently fails.
 */
import { type RefObject, useState } from 'react';
import './copy-button.css';

function selectContents(element: HTMLElement): void {
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLInputElement) {
    element.focus();
    element.select();
    return;
  }
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}

export function CopyButton({
  text,
  label,
  name,
  target,
}: {
  text: string;
  /** The button's visible text. */
  label: string;
  /** Its accessible name, when the visible label alone does not say what is copied (several "Copy" on a page). */
  name?: string;
  target?: RefObject<HTMLElement | null>;
}) {
  const [status, setStatus] = useState('');
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setStatus('Copied.');
    } catch {
      if (target?.current) {
        selectContents(target.current);
        setStatus('Your browser did not allow copying: the text is selected, press Ctrl+C (⌘C on a Mac).');
      } else {
        setStatus('Your browser did not allow copying: select the text and press Ctrl+C (⌘C on a Mac).');
      }
    }
  }
  return (
    <span className="copy">
      <button type="button" className="secondary" onClick={copy} aria-label={name}>
        {label}
      </button>
      <span role="status" className="copy-status">
        {status}
      </span>
    </span>
  );
}
