'use client';
/**
 * Shows a new secret exactly once, with a copy button, a ready-to-paste MCP client configuration and a
 * curl call (the docs' example call, handed down by the server page, which knows the tools). The page
 * never receives the secret again, so closing this dialog loses it for good: the warning stays on top,
 * and Escape closes only on its second press (the first one points at the warning).
 */
import { useEffect, useRef, useState } from 'react';
import { CopyButton } from '@/components/CopyButton.tsx';
import './keys-dialog.css';

function mcpClientConfig(origin: string, secret: string): string {
  return JSON.stringify(
    {
      mcpServers: { chemflow: { type: 'http', url: `${origin}/mcp`, headers: { Authorization: `Bearer ${secret}` } } },
    },
    null,
    2,
  );
}

/** A tools/call's params: the tool's name and its arguments. */
export interface ExampleCall {
  name: string;
  arguments: Record<string, unknown>;
}

function curlExample(origin: string, secret: string, call: ExampleCall): string {
  const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: call };
  return [
    `curl -s ${origin}/mcp \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H 'Accept: application/json, text/event-stream' \\`,
    `  -H 'Authorization: Bearer ${secret}' \\`,
    `  -d '${JSON.stringify(body)}'`,
  ].join('\n');
}

export function NewSecretDialog({
  title,
  secret,
  display,
  exampleCall,
  doneLabel = 'I have stored it',
  onClosed,
}: {
  title: string;
  secret: string;
  display: string;
  exampleCall: ExampleCall;
  doneLabel?: string;
  onClosed: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const secretField = useRef<HTMLTextAreaElement>(null);
  const configBlock = useRef<HTMLPreElement>(null);
  const curlBlock = useRef<HTMLPreElement>(null);
  const [escapeWarned, setEscapeWarned] = useState(false);
  // Rendered only in the browser, after the action that issued the key: the origin the browser sees.
  const [origin] = useState(() => window.location.origin);

  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal();
  }, []);

  return (
    <dialog
      ref={dialog}
      className="secret-dialog"
      aria-labelledby="new-secret-title"
      aria-describedby="new-secret-warning"
      onCancel={(event) => {
        if (!escapeWarned) {
          event.preventDefault();
          setEscapeWarned(true);
        }
      }}
      onClose={onClosed}
    >
      <h2 id="new-secret-title">{title}</h2>
      <p id="new-secret-warning" className="alert error">
        <strong>This is the only time the key is shown.</strong> Copy it now and keep it in a password manager or your
        client&apos;s secret settings. Once this dialog closes the secret is gone for good: ChemFlow stores only a hash
        of it. Lost it? Reissue the key to get a new one.
      </p>

      <label htmlFor="new-secret-value">
        Your new API key <span className="hint">({display})</span>
      </label>
      <textarea
        id="new-secret-value"
        ref={secretField}
        className="secret secret-field"
        readOnly
        rows={2}
        value={secret}
        spellCheck={false}
      />
      <CopyButton text={secret} target={secretField} label="Copy key" />

      <h3>MCP client configuration</h3>
      <p className="muted">
        Paste this into your MCP client&apos;s server settings (for example <code>.mcp.json</code>).
      </p>
      <figure aria-label="MCP client configuration">
        <pre ref={configBlock}>{mcpClientConfig(origin, secret)}</pre>
      </figure>
      <CopyButton text={mcpClientConfig(origin, secret)} target={configBlock} label="Copy configuration" />

      <h3>Try it with curl</h3>
      <figure aria-label="curl example">
        <pre ref={curlBlock}>{curlExample(origin, secret, exampleCall)}</pre>
      </figure>
      <CopyButton text={curlExample(origin, secret, exampleCall)} target={curlBlock} label="Copy curl command" />

      <div className="actions dialog-actions">
        {escapeWarned && (
          <p className="alert error escape-warning" role="alert">
            Close without keeping the key? It cannot be shown again. Press Escape once more to close, or copy it first.
          </p>
        )}
        <button type="button" onClick={() => dialog.current?.close()}>
          {doneLabel}
        </button>
      </div>
    </dialog>
  );
}
