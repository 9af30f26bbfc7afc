'use client';
/**
 * Copies text to the clipboard. Where the browser refuses (no permission, an insecure origin), it selects
 * the text on the page instead and says to press Ctrl+C, so copying never silently fails.
 */
import { useState, type RefObject } from 'react';

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

export function CopyButton({ text, target, label }: { text: string; target: RefObject<HTMLElement | null>; label: string }) {
  const [status, setStatus] = useState('');
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setStatus('Copied.');
    } catch {
      if (target.current) selectContents(target.current);
      setStatus('Your browser did not allow copying: the text is selected, press Ctrl+C (⌘C on a Mac).');
    }
  }
  return (
    <span className="copy">
      <button type="button" className="secondary" onClick={copy}>{label}</button>
      <span role="status" className="copy-status">{status}</span>
    </span>
  );
}
