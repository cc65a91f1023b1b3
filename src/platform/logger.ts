import type { FastifyServerOptions } from 'fastify'
import type { LogLevel } from '../config.js'

/** Header and body fields that may hold credentials; pino replaces them before anything is written. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.secret',
]

export function loggerOptions(level: LogLevel): FastifyServerOptions['logger'] {
  return { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }
}
