/** The operator's OAuth-client commands' refusals (operator-clients.ts). */
type OperatorClientErrorCode = 'invalid' | 'not_found';

export class OperatorClientError extends Error {
  constructor(
    readonly code: OperatorClientErrorCode,
    message: string,
    /** For 'invalid': each problem on its own, in words the operator can act on. */
    readonly problems: string[] = [],
  ) {
    super(message);
  }
}
