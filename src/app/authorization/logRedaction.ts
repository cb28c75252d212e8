/**
 * What the server's logger never writes (§12 "Tokens and secrets MUST NOT appear in … logs"):
 * pino's redaction of every member that could carry a capability token or a session token, in
 * case some future log line passes a request body or a header along. Nothing logs them today:
 * the Authorization Service logs token IDs only. Pino compiles these paths once, at start.
 */

import type { LoggerOptions } from 'pino';

export const LOG_REDACTION: NonNullable<LoggerOptions['redact']> = {
  paths: ['token', '*.token', 'capabilityToken', '*.capabilityToken', 'sessionToken', '*.sessionToken', 'authorization', '*.authorization', '*.headers.authorization'],
  censor: '[redacted]',
};
