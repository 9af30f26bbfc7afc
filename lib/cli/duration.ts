/** Expiry arguments of the CLI: "--expires-in 30d" (d, h or m) or "--expires 2027-01-01T00:00:00Z". */
const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000 } as const;

export function parseExpiry(options: { 'expires-in'?: string; expires?: string }, now = Date.now()): Date | null {
  if (options['expires-in'] && options.expires) throw new Error('Give either --expires-in or --expires, not both.');
  if (options['expires-in']) {
    const match = /^(\d+)([dhm])$/.exec(options['expires-in'].trim());
    if (!match || Number(match[1]) < 1)
      throw new Error(`--expires-in must look like 30d, 12h or 90m, got "${options['expires-in']}".`);
    return new Date(now + Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS]);
  }
  if (options.expires) {
    const date = new Date(options.expires);
    if (Number.isNaN(date.getTime()))
      throw new Error(`--expires must be an ISO 8601 date such as 2027-01-31T00:00:00Z, got "${options.expires}".`);
    if (date.getTime() <= now) throw new Error(`--expires ${options.expires} is in the past.`);
    return date;
  }
  return null;
}
