import http from 'node:http';
import type Database from 'better-sqlite3';
import { containsSecretFragment, redactSecretFragments } from '../../lib/ops/redact.ts';
import { MCP_HEADERS, toolCall } from './mcp-client.ts';
import { sendRaw } from './raw-http.ts';

// ─── Answers ─────────────────────────────────────────────────────────────────────────────────────

interface Exchange {
  what: string;
  status: number;
  /** The body and any Location-like header, minus the parts that may show a secret on purpose. */
  shown: string;
}

/** The first secret fragment in the text, with some context, redacted so the report itself leaks nothing. */
export function fragmentExcerpt(text: string): string | null {
  const match = /cf_[0-9A-Za-z]{9,}/.exec(text);
  if (!match) return null;
  const excerpt = text.slice(Math.max(0, match.index - 60), match.index + match[0].length + 30);
  return `…${redactSecretFragments(excerpt).replace(/\s+/g, ' ')}…`;
}

/**
 * Every answer the suite got, for the closing checks: no 500 anywhere, and no secret fragment in any
 * body or Location except where a secret is shown on purpose (the answer that issues a new key shows
 * that key; a JSON-RPC answer repeats the request's id, which the protocol requires).
 */
export class AnswerLedger {
  private readonly exchanges: Exchange[] = [];

  /** `allowed`: exact substrings of the body that may hold a secret (an issued key, an echoed id). */
  record(what: string, status: number, body: string, options: { location?: string; allowed?: string[] } = {}): void {
    let shown = `${body}\n${options.location ?? ''}`;
    for (const part of options.allowed ?? []) shown = shown.split(part).join('');
    this.exchanges.push({ what, status, shown });
  }

  get count(): number {
    return this.exchanges.length;
  }

  serverErrors(): string[] {
    return this.exchanges
      .filter((e) => e.status >= 500 && e.status !== 503)
      .map((e) => `${e.what}: ${e.status} ${e.shown.replace(/\s+/g, ' ').trim().slice(0, 200)}`);
  }

  /** The answers recorded from the `since`-th on (all by default) that show a secret fragment. */
  secretEchoes(since = 0): string[] {
    return this.exchanges.slice(since).flatMap((e) => {
      const excerpt = fragmentExcerpt(e.shown);
      return excerpt ? [`${e.what} (${e.status}) shows a secret fragment: ${excerpt}`] : [];
    });
  }
}

/** The server's output without the first-start banner, the one place it prints secrets on purpose. */
export function outputWithoutBanner(output: string): string {
  return output.replace(
    /^First start: an admin account and a demo key were created\. They are shown only now\.\n(?: {2}.*\n){3}/m,
    '',
  );
}

/** The output lines that hold a secret fragment. */
export function linesWithSecrets(text: string, where: string): string[] {
  return text
    .split('\n')
    .filter(containsSecretFragment)
    .map((line) => `${where}: ${fragmentExcerpt(line)}`);
}

// ─── Storage ─────────────────────────────────────────────────────────────────────────────────────

interface TextColumn {
  table: string;
  column: string;
}

/** Every text column of every table (SQLite declares Prisma's String as TEXT). */
export function textColumns(db: Database.Database): TextColumn[] {
  const tables = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
    .pluck()
    .all() as string[];
  return tables.flatMap((table) =>
    (db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string; type: string }[])
      .filter((column) => /TEXT|CHAR|CLOB/i.test(column.type))
      .map((column) => ({ table, column: column.name })),
  );
}

export interface StorageSnapshot {
  /** The database's size as a reader sees it (committed WAL pages included). */
  bytes: number;
  /** The sum of the lengths of every text value in every table. */
  textLength: number;
}

export function storageSnapshot(db: Database.Database): StorageSnapshot {
  const pages = db.prepare('PRAGMA page_count').pluck().get() as number;
  const pageSize = db.prepare('PRAGMA page_size').pluck().get() as number;
  let textLength = 0;
  for (const { table, column } of textColumns(db)) {
    textLength += db.prepare(`SELECT COALESCE(SUM(LENGTH("${column}")), 0) FROM "${table}"`).pluck().get() as number;
  }
  return { bytes: pages * pageSize, textLength };
}

/** Every stored text value that holds a secret fragment, as "table.column (rowid n): excerpt". */
export function storedSecretFragments(db: Database.Database): string[] {
  return textColumns(db).flatMap(({ table, column }) => {
    const rows = db
      .prepare(
        `SELECT rowid AS rowid, "${column}" AS value FROM "${table}" WHERE "${column}" LIKE '%cf\\_%' ESCAPE '\\'`,
      )
      .all() as { rowid: number; value: string }[];
    return rows
      .filter((row) => containsSecretFragment(row.value))
      .map((row) => `${table}.${column} (rowid ${row.rowid}): ${fragmentExcerpt(row.value)}`);
  });
}

// ─── Return paths ────────────────────────────────────────────────────────────────────────────────

/**
 * Why a redirect's target is not a safe return path (null: it is, or there is none): it must resolve
 * to this site's origin and hold no backslash or control character, which browsers read their own way.
 */
export function returnPathProblem(location: string | undefined, baseUrl: string): string | null {
  if (location === undefined) return null;
  if (location.includes('\\')) return `a backslash in ${JSON.stringify(location)}`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a control character in a redirect target is what this check looks for
  if (/[\u0000-\u001f\u007f]/.test(location)) return `a control character in ${JSON.stringify(location)}`;
  let target: URL;
  try {
    target = new URL(location, baseUrl);
  } catch {
    return `${JSON.stringify(location)} is not a URL`;
  }
  return target.origin === new URL(baseUrl).origin ? null : `${JSON.stringify(location)} leads to ${target.origin}`;
}

export interface RawGetAnswer {
  status: number;
  /** The Location header exactly as sent (raw tabs and other control characters kept). */
  location?: string;
  text: string;
}

/** A GET whose answer is read with the lenient parser, so a Location holding control characters arrives as sent. */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawGetAnswer> {
  return new Promise((done, fail) => {
    const request = http.get(url, { headers, insecureHTTPParser: true }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const at = res.rawHeaders.findIndex((name, i) => i % 2 === 0 && name.toLowerCase() === 'location');
        done({
          status: res.statusCode!,
          location: at >= 0 ? res.rawHeaders[at + 1] : undefined,
          text: Buffer.concat(chunks).toString('utf8'),
        });
      });
      res.on('error', fail);
    });
    request.setTimeout(30_000, () => request.destroy(new Error(`no answer from ${url} within 30 s`)));
    request.on('error', fail);
  });
}

// ─── Load ──────────────────────────────────────────────────────────────────

export interface LoadTally {
  calls: number;
  /** Answers by status, e.g. {"200": 5123}. */
  statuses: Record<string, number>;
  /** Answers that were not a 200 tool result, and transport errors (at most 20 kept). */
  problems: string[];
}

/**
 * `loops` keep-alive loops, each sending the next tools/call as soon as the last is answered, until
 * `running()` turns false, `maxCalls` calls were sent or `maxMs` passed.
 */
export async function callLoad(
  baseUrl: string,
  key: string,
  options: { loops: number; running: () => boolean; maxCalls: number; maxMs: number; tally?: LoadTally },
): Promise<LoadTally> {
  // A tally passed in is counted into as the calls go, so the caller can read it meanwhile.
  const tally: LoadTally = options.tally ?? { calls: 0, statuses: {}, problems: [] };
  const deadline = Date.now() + options.maxMs;
  const body = JSON.stringify(toolCall('service_formula_info', { formula: 'H2O' }));
  const loop = async () => {
    while (options.running() && tally.calls < options.maxCalls && Date.now() < deadline) {
      tally.calls++;
      try {
        const answer = await sendRaw(baseUrl, {
          method: 'POST',
          path: '/mcp',
          headers: { ...MCP_HEADERS, authorization: `Bearer ${key}` },
          body,
          contentLength: true,
        });
        tally.statuses[answer.status] = (tally.statuses[answer.status] ?? 0) + 1;
        if (answer.status !== 200 && tally.problems.length < 20)
          tally.problems.push(`${answer.status} ${answer.text.slice(0, 200)}`);
      } catch (error) {
        if (tally.problems.length < 20) tally.problems.push(`no answer: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: options.loops }, loop));
  return tally;
}
