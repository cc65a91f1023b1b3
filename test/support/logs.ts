import { Writable } from 'node:stream'
import type { FastifyBaseLogger } from 'fastify'
import { createLogger } from '../../src/platform/logger.js'

export interface CapturedLogs {
  /** The service's logger at the default level, as JSON lines: pass it as the test app's `logger`. */
  logger: FastifyBaseLogger
  /** Everything written so far. */
  text(): string
}

/** A logger whose lines are kept for the test to read, as an operator would read them. */
export function captureLogs(): CapturedLogs {
  let written = ''
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written += chunk.toString()
      done()
    },
  })
  return { logger: createLogger({ logLevel: 'info', logFormat: 'json' }, sink), text: () => written }
}
