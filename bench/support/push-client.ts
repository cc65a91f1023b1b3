/**
 * A forked pushing client (see child.ts): `prepare` builds the request bodies of ~1 MiB image files
 * before the timed window, `run` pushes them to POST /api/v1/assets `inFlight` at a time and times each
 * push from its start. The server keeps its process to itself.
 */
import { readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { performance } from 'node:perf_hooks'
import { answerParent, forkChild } from './child.js'
import type { Format } from './noise-images.js'

export const VARIANTS = ['json', 'multipart'] as const
export type Variant = (typeof VARIANTS)[number]

const CHILD_ROLE = '--push-client'
const BOUNDARY = 'bench-push-boundary-5b1f0c'

/** One request or one in-process decode. */
export interface Outcome {
  ms: number
  ok: boolean
  detail?: string
}

export interface Run {
  outcomes: Outcome[]
  windowMs: number
}

/** A request body the client sends as it is. */
interface Body {
  contentType: string
  bytes: Buffer
}

type ClientMessage = { kind: 'prepare'; files: string[]; format: Format; variant: Variant } | { kind: 'run'; url: string; token: string; inFlight: number }

export interface PushClient {
  /** Builds the bodies of `files`, each with the same fields: `variant` says JSON (base64) or multipart. */
  prepare(files: string[], format: Format, variant: Variant): Promise<void>
  /** Pushes the prepared bodies, `inFlight` at a time; a push counts as done when it created an asset. */
  run(url: string, token: string, inFlight: number): Promise<Run>
  stop(): void
}

export async function startPushClient(): Promise<PushClient> {
  const child = await forkChild(new URL(import.meta.url), [CHILD_ROLE])
  return {
    prepare: async (files, format, variant) => void (await child.ask({ kind: 'prepare', files, format, variant })),
    run: (url, token, inFlight) => child.ask<Run>({ kind: 'run', url, token, inFlight }),
    stop: () => child.stop(),
  }
}

/** `inFlight` workers take the next item until none is left; each outcome is timed from its start. */
export async function runWorkers<T>(items: T[], inFlight: number, work: (item: T) => Promise<Omit<Outcome, 'ms'>>): Promise<Run> {
  const outcomes: Outcome[] = []
  let next = 0
  const started = performance.now()
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!
      const begun = performance.now()
      const result = await work(item).catch((error: unknown) => ({ ok: false, detail: String(error) }))
      outcomes.push({ ...result, ms: performance.now() - begun })
    }
  }
  await Promise.all(Array.from({ length: inFlight }, worker))
  return { outcomes, windowMs: performance.now() - started }
}

/** Child side: `prepare` builds the request bodies (untimed), `run` pushes them `inFlight` at a time. */
function runPushClient(): void {
  let bodies: Body[] = []
  answerParent(async (message: ClientMessage) => {
    if (message.kind === 'prepare') {
      const { format, variant } = message
      bodies = message.files.map((file, i) => {
        const fields = { title: `Bench ${format} ${i}`, asset_type: 'Photo', client: 'Acme', product: 'Widget', created_by_ai: false }
        const image = readFileSync(file)
        return variant === 'json'
          ? { contentType: 'application/json', bytes: Buffer.from(JSON.stringify({ image_base64: image.toString('base64'), ...fields, tag_names: ['bench', format] })) }
          : formBody(image, format, [...Object.entries(fields).map(([name, value]): [string, string] => [name, String(value)]), ['tag_names', 'bench'], ['tag_names', format]])
      })
      return 'prepared'
    }
    const agent = new Agent({ keepAlive: true, maxSockets: message.inFlight })
    const run = await runWorkers(bodies, message.inFlight, async (body) => {
      const { status, text } = await post(agent, message.url, message.token, body)
      const ok = status === 201 && (JSON.parse(text) as { duplicate?: boolean }).duplicate === false
      return ok ? { ok } : { ok, detail: `${status} ${text.slice(0, 200)}` }
    })
    agent.destroy()
    return run
  })
}

/** A multipart/form-data body as `curl -F file=@image.png -F title=...` sends it: the file, then the fields. */
function formBody(image: Buffer, format: Format, fields: Array<[string, string]>): Body {
  const part = (headers: string) => Buffer.from(`--${BOUNDARY}\r\n${headers}\r\n\r\n`)
  const chunks = [part(`Content-Disposition: form-data; name="file"; filename="image.${format}"\r\nContent-Type: image/${format}`), image, Buffer.from('\r\n')]
  for (const [name, value] of fields) chunks.push(part(`Content-Disposition: form-data; name="${name}"`), Buffer.from(value), Buffer.from('\r\n'))
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`))
  return { contentType: `multipart/form-data; boundary=${BOUNDARY}`, bytes: Buffer.concat(chunks) }
}

function post(agent: Agent, url: string, token: string, body: Body): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${token}`, 'content-type': body.contentType, 'content-length': String(body.bytes.length) }
    const req = request(url, { method: 'POST', agent, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.once('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }))
    })
    req.once('error', reject)
    req.end(body.bytes)
  })
}

if (process.argv.includes(CHILD_ROLE)) runPushClient()
