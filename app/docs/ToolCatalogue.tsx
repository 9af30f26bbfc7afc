/**
 * The tool catalogue from the live registry: one <details> per tool (so the page stays short on a
 * phone), each with its description, its arguments as the input schema states them, and its example.
 */
import { registry } from '@/lib/mcp/registry.ts';
import { toolArguments } from './tool-arguments.ts';

export function ToolCatalogue() {
  return (
    <div className="tool-list">
      {[...registry.values()].map(({ tool }) => (
        <details key={tool.name} id={tool.name} className="tool">
          <summary>
            <code>{tool.name}</code> <span className="tool-title">{tool.title}</span>
          </summary>
          <p>{tool.description}</p>
          <h4>Arguments</h4>
          <ul className="arguments" aria-label={`Arguments of ${tool.name}`}>
            {toolArguments(tool.inputSchema).map((arg) => (
              <li key={arg.name}>
                <div className="argument-head">
                  <code className="argument-name">{arg.name}</code>
                  <span className="muted">{arg.type}</span>
                  <span className={arg.required ? 'badge required' : 'badge optional'}>
                    {arg.required ? 'required' : 'optional'}
                  </span>
                </div>
                {arg.facts.length ? <div className="argument-facts">{arg.facts.join(' · ')}</div> : null}
                <p>{arg.description}</p>
              </li>
            ))}
          </ul>
          <h4>Example params</h4>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long line scrolls sideways, and keyboard users can only scroll what they can focus (WCAG 2.1.1) */}
          <pre tabIndex={0}>
            <code>{JSON.stringify({ name: tool.name, arguments: tool.example }, null, 2)}</code>
          </pre>
        </details>
      ))}
    </div>
  );
}
