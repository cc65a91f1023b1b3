import type { FastifyServerOptions } from 'fastify'
import pino, { type DestinationStream, type Logger } from 'pino'
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

const CENSOR = '[redacted]'
/** Query parameters that carry capabilities or credentials: a signed file URL's `sig`, keys a client put in a URL. */
const SECRET_PARAMETER = /([?&](?:sig|signature|api_key|apikey|key|token|access_token)=)[^&#]*/gi
/** Paths whose segment is a bearer capability: share links and invitation links. */
const SECRET_SEGMENT = /^(\/(?:s|invite)\/)[^/?#]+/

/** A request URL fit for the logs: capability tokens and credentials replaced. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_SEGMENT, `$1${CENSOR}`).replace(SECRET_PARAMETER, `$1${CENSOR}`)
}

interface LoggedRequest {
  method: string
  url: string
  host?: string
  ip?: string
  socket?: { remotePort?: number }
}

/** Fastify's request serializer, with the URL redacted. */
const serializers = {
  req: (request: LoggedRequest) => ({
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }),
}

export function loggerOptions(level: LogLevel) {
  return { level, redact: { paths: REDACTED_PATHS, censor: CENSOR }, serializers } satisfies FastifyServerOptions['logger']
}

/** The service's logger as `serve` builds it, on another destination (tests read what it writes). */
export function createLogger(level: LogLevel, destination: DestinationStream): Logger {
  return pino(loggerOptions(level), destination)
}
