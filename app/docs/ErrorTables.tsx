/** The error tables of the docs page: HTTP-level errors, tool errors, JSON-RPC errors. */
import { HTTP_ERRORS, JSON_RPC_ERRORS, TOOL_ERRORS } from './error-catalogue.ts';

export function ErrorTables() {
  return (
    <>
      <h3 id="http-errors">HTTP errors</h3>
      <p>
        The body is always <code>{'{"error": "<code>", "message": "<what to do>"}'}</code>, with extra fields where
        noted.
      </p>
      <div className="table-wrap">
        <table className="cards" aria-labelledby="http-errors">
          <thead>
            <tr>
              <th scope="col" className="num">
                Status
              </th>
              <th scope="col">error</th>
              <th scope="col">When</th>
              <th scope="col">What to do</th>
            </tr>
          </thead>
          <tbody>
            {HTTP_ERRORS.map((e) => (
              <tr key={e.error}>
                <td className="num key">{e.status}</td>
                <td className="key">
                  <code>{e.error}</code>
                </td>
                <td data-label="When">{e.when}</td>
                <td data-label="What to do">{e.remedy}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h3 id="tool-errors">Tool errors</h3>
      <p>
        A tool that cannot answer still returns HTTP 200 with a normal <code>tools/call</code> result, marked{' '}
        <code>{'"isError": true'}</code>. Its text is a JSON document{' '}
        <code>{'{"error": "<code>", "message": "…", …details}'}</code>; the message says what to change.
      </p>
      <div className="table-wrap">
        <table className="cards" aria-labelledby="tool-errors">
          <thead>
            <tr>
              <th scope="col">error</th>
              <th scope="col">When</th>
            </tr>
          </thead>
          <tbody>
            {TOOL_ERRORS.map((e) => (
              <tr key={e.error}>
                <td className="key">
                  <code>{e.error}</code>
                </td>
                <td data-label="When">{e.when}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h3 id="json-rpc-errors">JSON-RPC errors</h3>
      <div className="table-wrap">
        <table className="cards" aria-labelledby="json-rpc-errors">
          <thead>
            <tr>
              <th scope="col" className="num">
                code
              </th>
              <th scope="col">Meaning</th>
              <th scope="col">When</th>
            </tr>
          </thead>
          <tbody>
            {JSON_RPC_ERRORS.map((e) => (
              <tr key={e.code}>
                <td className="num key">
                  <code>{e.code}</code>
                </td>
                <td className="key">{e.name}</td>
                <td data-label="When">{e.when}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
