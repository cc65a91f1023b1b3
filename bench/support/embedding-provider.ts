/**
 * An instant embedding provider for benchmarks: a real HTTP server on 127.0.0.1 (port from the OS),
 * answering at once with search-corpus.ts's vector of each text's words in the space of `dimensions`.
 * It speaks one of two protocols:
 * - `openai`, the text provider's: `POST /v1/embeddings` with `{model, input}` answers
 *   `{data: [{index, embedding}]}`;
 * - `immich-ml`, the image provider's (Immich's machine-learning service): `POST /predict` with a
 *   multipart form whose `text` field holds the query answers `{clip: "<the vector as a JSON array>"}`,
 *   as Immich serialises it. Only texts: the bench seeds the images' vectors itself.
 * It runs in a forked child (see child.ts), so its CPU time never counts as the server's.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { answerParent, forkChild } from './child.js'
import { vectorSpace } from './search-corpus.js'

export type EmbeddingProtocol = 'openai' | 'immich-ml'

export interface EmbeddingProvider {
  /** The URL to configure: EMBEDDING_BASE_URL (`http://127.0.0.1:<port>/v1`) or IMAGE_EMBEDDING_URL (`http://127.0.0.1:<port>`). */
  baseUrl: string
  stop(): void
}

const CHILD_ROLE = '--embedding-provider'

export async function startEmbeddingProvider(protocol: EmbeddingProtocol, dimensions: number): Promise<EmbeddingProvider> {
  const child = await forkChild(new URL(import.meta.url), [CHILD_ROLE, protocol, String(dimensions)])
  const baseUrl = await child.ask<string>('url')
  return { baseUrl, stop: () => child.stop() }
}

type Answer = { status: number; body: unknown }

/** `POST /v1/embeddings`: every input's vector. */
function openAiAnswer(body: Buffer, textVector: (text: string) => number[]): Answer {
  let request: { model?: string; input?: string | string[] }
  try {
    request = JSON.parse(body.toString('utf8')) as typeof request
  } catch {
    return { status: 400, body: { error: { message: 'not JSON' } } }
  }
  const inputs = typeof request.input === 'string' ? [request.input] : (request.input ?? [])
  const data = inputs.map((text, index) => ({ object: 'embedding', index, embedding: textVector(text) }))
  return { status: 200, body: { object: 'list', model: request.model, data } }
}

/** `POST /predict`: the `text` field's vector, serialised as Immich does (a JSON array in a string). */
async function immichAnswer(body: Buffer, contentType: string, textVector: (text: string) => number[]): Promise<Answer> {
  const form = await new Response(body, { headers: { 'content-type': contentType } }).formData()
  const text = form.get('text')
  if (typeof form.get('entries') !== 'string') return { status: 422, body: { detail: 'Invalid request format.' } }
  if (typeof text !== 'string') return { status: 400, body: { detail: 'this bench provider embeds texts only' } }
  return { status: 200, body: { clip: JSON.stringify(textVector(text)) } }
}

async function serve(protocol: EmbeddingProtocol, dimensions: number): Promise<void> {
  const { textVector } = vectorSpace(dimensions)
  const path = protocol === 'openai' ? '/v1/embeddings' : '/predict'
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== path) return void response.writeHead(404).end()
      const body = Buffer.concat(chunks)
      const answered = protocol === 'openai' ? Promise.resolve(openAiAnswer(body, textVector)) : immichAnswer(body, request.headers['content-type'] ?? '', textVector)
      answered.then(
        ({ status, body }) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
        (error: Error) => response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: error.message })),
      )
    })
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  answerParent<'url'>(async () => `http://127.0.0.1:${port}${protocol === 'openai' ? '/v1' : ''}`)
}

const role = process.argv.indexOf(CHILD_ROLE)
if (role >= 0) await serve(process.argv[role + 1] as EmbeddingProtocol, Number(process.argv[role + 2]))
