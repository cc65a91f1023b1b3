/**
 * A webhook receiver for benchmarks: a real HTTPS server on 127.0.0.1 (port from the OS) with the tests'
 * self-signed certificate for 127.0.0.1 (test/support/tls/receiver.crt, CA:TRUE, so it is also the CA to
 * trust), answering every POST with 200, at once or after a fixed delay. It runs in a forked child (see child.ts), so its TLS and
 * HTTP work is never the sender's. It keeps each request's raw body, signature header and time of arrival
 * (epoch ms, sub-millisecond: `performance.timeOrigin + performance.now()` once the body is in), grouped by
 * path; signatures are checked with the package's own `verifyWebhook` only when the parent collects them,
 * outside any measured window.
 */
import { readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { verifyWebhook } from '../../src/webhooks.js'
import { answerParent, forkChild } from './child.js'

const tlsFile = (name: string) => fileURLToPath(new URL(`../../test/support/tls/${name}`, import.meta.url))

/** The receiver's certificate, which is its own CA: what OUTBOUND_CA_FILE and the baseline trust. */
export const RECEIVER_CERT_FILE = tlsFile('receiver.crt')
const RECEIVER_KEY_FILE = tlsFile('receiver.key')

/** One request as checked at collection. */
export interface Receipt {
  /** Epoch ms on the receiver's clock, when the body had arrived in full. */
  at: number
  /** `data.seq` of the envelope; undefined if the body was not an envelope with one. */
  seq: number | undefined
  /** The envelope's id (the delivery id) and the X-Service-Delivery-Id header: they must agree. */
  deliveryId: string | undefined
  deliveryHeader: string | undefined
  event: string | undefined
  organizationId: string | undefined
  emittedAt: string | undefined
  /** Null when verifyWebhook accepted it; else its error code or message. */
  verifyError: string | null
}

export interface BenchReceiver {
  /** `https://127.0.0.1:<port>` */
  origin: string
  /** The receiver's clock minus this process's (epoch ms), from the best of a few round trips. */
  clockOffsetMs: number
  /** Resolves when `path` has had `count` requests since the last reset (or after `timeoutMs`), with how many it had. */
  waitFor(path: string, count: number, timeoutMs: number): Promise<number>
  /** Every request to `path` since the last reset, each signature checked against `secret`. */
  collect(path: string, secret: string): Promise<Receipt[]>
  /** Forgets every request so far. */
  reset(): Promise<void>
  stop(): void
}

type Message =
  | { type: 'origin' }
  | { type: 'clock' }
  | { type: 'wait'; path: string; count: number; timeoutMs: number }
  | { type: 'collect'; path: string; secret: string }
  | { type: 'reset' }

const CHILD_ROLE = '--webhook-receiver'
const DELAY_ARG = '--delay-ms='

const now = () => performance.timeOrigin + performance.now()

/** `delayMs`: how long the receiver waits before it answers (a receiver that does some work); 0 answers at once. */
export async function startBenchReceiver(delayMs = 0): Promise<BenchReceiver> {
  const child = await forkChild(new URL(import.meta.url), [CHILD_ROLE, `${DELAY_ARG}${delayMs}`])
  const origin = await child.ask<string>({ type: 'origin' } satisfies Message)
  // The offset that the fastest round trip implies: the child read its clock half-way, give or take half of it.
  let best = { rtt: Infinity, offset: 0 }
  for (let i = 0; i < 30; i++) {
    const sent = now()
    const theirs = await child.ask<number>({ type: 'clock' } satisfies Message)
    const back = now()
    if (back - sent < best.rtt) best = { rtt: back - sent, offset: theirs - (sent + back) / 2 }
  }
  return {
    origin,
    clockOffsetMs: best.offset,
    waitFor: (path, count, timeoutMs) => child.ask<number>({ type: 'wait', path, count, timeoutMs } satisfies Message),
    collect: (path, secret) => child.ask<Receipt[]>({ type: 'collect', path, secret } satisfies Message),
    reset: async () => void (await child.ask<string>({ type: 'reset' } satisfies Message)),
    stop: () => child.stop(),
  }
}

interface Raw {
  at: number
  body: string
  signature: string | undefined
  deliveryHeader: string | undefined
}

async function serve(): Promise<void> {
  const delayMs = Number(process.argv.find((arg) => arg.startsWith(DELAY_ARG))?.slice(DELAY_ARG.length) ?? 0)
  let byPath = new Map<string, Raw[]>()
  let waiting: { path: string; count: number; done: (count: number) => void } | undefined
  const server = createServer({ key: readFileSync(RECEIVER_KEY_FILE), cert: readFileSync(RECEIVER_CERT_FILE) }, (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const at = now()
      const answer = () => response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }).end('ok')
      if (delayMs > 0) setTimeout(answer, delayMs)
      else answer()
      const path = request.url ?? ''
      const list = byPath.get(path) ?? []
      if (list.length === 0) byPath.set(path, list)
      const signature = request.headers['x-service-signature']
      const deliveryHeader = request.headers['x-service-delivery-id']
      list.push({
        at,
        body: Buffer.concat(chunks).toString('utf8'),
        signature: typeof signature === 'string' ? signature : undefined,
        deliveryHeader: typeof deliveryHeader === 'string' ? deliveryHeader : undefined,
      })
      if (waiting && waiting.path === path && list.length >= waiting.count) waiting.done(list.length)
    })
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  answerParent<Message>(async (message) => {
    switch (message.type) {
      case 'origin':
        return `https://127.0.0.1:${port}`
      case 'clock':
        return now()
      case 'reset':
        byPath = new Map()
        // process.send() needs a message.
        return 'reset'
      case 'wait': {
        const have = byPath.get(message.path)?.length ?? 0
        if (have >= message.count) return have
        return new Promise<number>((resolve) => {
          const timer = setTimeout(() => done(byPath.get(message.path)?.length ?? 0), message.timeoutMs)
          const done = (count: number) => {
            clearTimeout(timer)
            waiting = undefined
            resolve(count)
          }
          waiting = { path: message.path, count: message.count, done }
        })
      }
      case 'collect':
        return (byPath.get(message.path) ?? []).map((raw) => check(raw, message.secret))
    }
  })
}

function check(raw: Raw, secret: string): Receipt {
  let envelope: { id?: string; event?: string; organization_id?: string; emitted_at?: string; data?: { seq?: number } } = {}
  let verifyError: string | null = null
  try {
    envelope = verifyWebhook(raw.body, { 'x-service-signature': raw.signature }, secret)
  } catch (error) {
    verifyError = (error as { code?: string }).code ?? String(error)
    try {
      envelope = JSON.parse(raw.body) as typeof envelope
    } catch {
      // not JSON: every field stays undefined
    }
  }
  return {
    at: raw.at,
    seq: typeof envelope.data?.seq === 'number' ? envelope.data.seq : undefined,
    deliveryId: envelope.id,
    deliveryHeader: raw.deliveryHeader,
    event: envelope.event,
    organizationId: envelope.organization_id,
    emittedAt: envelope.emitted_at,
    verifyError,
  }
}

if (process.argv.includes(CHILD_ROLE)) await serve()
