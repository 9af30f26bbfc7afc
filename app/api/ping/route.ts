/**
 * GET /api/ping: a liveness probe (the process is up and Next answers). It touches no database and
 * no Redis, so it says nothing about their health; the benchmark also uses it as the cost of the
 * cheapest possible Next.js route handler (the framework's ceiling).
 */
export const dynamic = 'force-dynamic';

export function GET(): Response {
  return new Response('ok', {
    status: 200,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });
}
