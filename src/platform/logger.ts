import type { FastifyServerOptions } from 'fastify'
import pino, { type DestinationStream, type Logger } from 'pino'
import { isColorSupported, prettyFactory } from 'pino-pretty'

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
/** `json`: one JSON object a line, for whatever collects logs. `pretty`: lines for a person at a terminal. */
export type LogFormat = 'json' | 'pretty'

/** Header and body fields that may hold credentials; pino replaces them before anything is written. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'req.headers["x-figma-token"]',
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

interface RequestLogEntry {
  reqId?: string
  req?: { method: string; url: string }
  res?: { statusCode: number }
  responseTime?: number
}

/** Fastify's two entries a request, each on one line: `req-1 incoming request GET /health`, `req-1 request completed 200 in 3 ms`. */
function requestLine(entry: Record<string, unknown>, messageKey: string): string {
  const { reqId, req, res, responseTime } = entry as RequestLogEntry
  const parts = [reqId, entry[messageKey] as string | undefined]
  if (req) parts.push(req.method, req.url)
  if (res) parts.push(String(res.statusCode))
  if (responseTime !== undefined) parts.push(`in ${Math.round(responseTime)} ms`)
  return parts.filter(Boolean).join(' ')
}

/**
 * pino-pretty's formatter in front of a destination. It runs in the main thread and writes
 * synchronously: a terminal is read at a person's pace, and the lines stay in order with the first-run
 * banner, which `serve` writes to stdout directly.
 */
function prettyLines(destination: DestinationStream, colorize: boolean): DestinationStream {
  const format = prettyFactory({
    colorize,
    translateTime: 'SYS:HH:MM:ss.l',
    singleLine: true,
    ignore: 'pid,hostname,reqId,req,res,responseTime',
    messageFormat: requestLine,
  })
  return { write: (line: string) => destination.write(format(line)) }
}

/**
 * The service's logger, on stdout unless a destination is given (tests read what it writes). Redaction
 * happens in pino before either format sees an entry.
 */
export function createLogger({ logLevel, logFormat }: { logLevel: LogLevel; logFormat: LogFormat }, destination?: DestinationStream): Logger {
  const options = loggerOptions(logLevel)
  if (logFormat === 'json') return destination ? pino(options, destination) : pino(options)
  return pino(options, prettyLines(destination ?? pino.destination({ dest: 1, sync: true }), !destination && isColorSupported))
}
