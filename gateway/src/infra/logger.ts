import { pino, type Logger } from 'pino';

/**
 * The process logger: JSON lines on stdout; secrets and cookies redacted. Writes stay synchronous: answered
 * requests log at debug (app.ts), so at the default level the lines left are refusals, warnings and faults, and
 * those must reach the output even when the process dies right after.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers["x-csrf-token-value"]',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
      ],
      censor: '[redacted]',
    },
  });
}
