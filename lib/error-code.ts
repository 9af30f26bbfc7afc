/**
 * Errors are recognised by their `code`, never by `instanceof`: server.ts and Next's bundle each load their
 * own copy of lib/, so an error thrown by a service one copy built (lib/process-shared.ts) is not an
 * instance of the other copy's class. Prisma's errors carry codes the same way (P2002: a unique field taken).
 */
export function hasErrorCode<Code extends string>(error: unknown, code: Code): error is Error & { code: Code } {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
