import { readFileSync } from 'node:fs'
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import { createServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import type { Db } from '../../src/platform/db/index.js'
import { waitFor } from './wait.js'

const tlsFile = (name: string) => fileURLToPath(new URL(`./tls/${name}`, import.meta.url))

/** The receivers' self-signed certificate; apps under test trust it through OUTBOUND_CA_FILE. */
export const RECEIVER_CA_FILE = tlsFile('receiver.crt')
export const RECEIVER_KEY_FILE = tlsFile('receiver.key')

/** The retry schedule and timeout that apps under test use, short so retries run in a test's time. */
export const SCHEDULE_MS = [100, 200, 300, 400]
export const TIMEOUT_MS = 1000

/** Receivers on 127.0.0.1 with the test certificate: allowed and trusted on purpose. */
export const WEBHOOK_TEST_ENV = {
  OUTBOUND_ALLOWLIST: '127.0.0.1',
  OUTBOUND_CA_FILE: RECEIVER_CA_FILE,
  WEBHOOK_RETRY_SCHEDULE: SCHEDULE_MS.map((ms) => `${ms}ms`).join(','),
  WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
}

export interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: string
  /** performance.now() when the request had arrived in full. */
  at: number
}

export interface Answer {
  status?: number
  headers?: Record<string, string>
  body?: string
  /** Waits this long before answering (a slow receiver). */
  delayMs?: number
  /** Never answers (until the receiver closes). */
  hang?: boolean
  /** Called once the answer has been sent in full. */
  sent?: () => void
}

export interface WebhookReceiver {
  /** `https://127.0.0.1:<port>/hooks` */
  url: string
  received: Received[]
  /** How the receiver answers from now on; the default is 200 "ok". */
  answer(respond: (request: Received) => Answer): void
  /** Cuts the connections of the requests it never answered, all at once. */
  cutHanging(): void
  /** Resolves with the first `count` requests once that many have arrived. */
  waitForCount(count: number, timeoutMs?: number): Promise<Received[]>
  close(): Promise<void>
}

/**
 * A real HTTPS server on 127.0.0.1 with a port chosen by the OS. `untrusted` serves a certificate the
 * apps do not trust (a TLS failure).
 */
export async function startReceiver(options: { untrusted?: boolean } = {}): Promise<WebhookReceiver> {
  const name = options.untrusted ? 'untrusted' : 'receiver'
  const received: Received[] = []
  let respond: (request: Received) => Answer = () => ({})
  const hanging = new Set<ServerResponse>()
  const server = createServer({ key: readFileSync(tlsFile(`${name}.key`)), cert: readFileSync(tlsFile(`${name}.crt`)) }, (req, res) => {
    void readBody(req).then((body) => {
      const request: Received = { path: req.url ?? '', headers: req.headers, body, at: performance.now() }
      received.push(request)
      const answer = respond(request)
      if (answer.hang) {
        hanging.add(res)
        return
      }
      const send = () => res.writeHead(answer.status ?? 200, answer.headers ?? { 'content-type': 'text/plain' }).end(answer.body ?? 'ok', answer.sent)
      if (answer.delayMs) setTimeout(send, answer.delayMs)
      else send()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `https://127.0.0.1:${port}/hooks`,
    received,
    answer: (next) => {
      respond = next
    },
    cutHanging: () => {
      for (const res of hanging) res.destroy()
      hanging.clear()
    },
    async waitForCount(count, timeoutMs = 10_000) {
      await waitFor(`${count} webhook requests`, () => received.length >= count, timeoutMs)
      return received.slice(0, count)
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * Waits until the organization's webhook work has come to rest: every outbox event fanned out (the
 * dispatcher deletes each event in the statement that makes its deliveries) and every delivery succeeded
 * or failed for good. A receiver has each request before its outcome is written, so by then it holds
 * every request it will ever get, however slow the machine.
 */
export async function webhooksAtRest(db: Db, organizationId: string, timeoutMs = 10_000): Promise<void> {
  await waitFor(
    'the webhook work to come to rest',
    async () => {
      // Events first: a fan-out between the two reads shows up as a pending delivery in the second.
      const event = await db.selectFrom('outbox_events').select('id').where('organization_id', '=', organizationId).executeTakeFirst()
      if (event) return false
      const pending = await db.selectFrom('webhook_deliveries').select('id').where('organization_id', '=', organizationId).where('status', '=', 'pending').executeTakeFirst()
      return !pending
    },
    timeoutMs,
  )
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
