/**
 * An instant embedding provider for benchmarks: a real HTTP server on 127.0.0.1 (port from the OS)
 * speaking the OpenAI embeddings protocol (`POST /v1/embeddings` with `{model, input}` answers
 * `{data: [{index, embedding}]}`), answering at once with search-corpus.ts's vector of each text's words.
 * It runs in a forked child (see child.ts), so its CPU time never counts as the server's.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { answerParent, forkChild } from './child.js'
import { textVector } from './search-corpus.js'

export interface EmbeddingProvider {
  /** The EMBEDDING_BASE_URL to configure (`http://127.0.0.1:<port>/v1`). */
  baseUrl: string
  stop(): void
}

const CHILD_ROLE = '--embedding-provider'

export async function startEmbeddingProvider(): Promise<EmbeddingProvider> {
  const child = await forkChild(new URL(import.meta.url), [CHILD_ROLE])
  const baseUrl = await child.ask<string>('url')
  return { baseUrl, stop: () => child.stop() }
}

async function serve(): Promise<void> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/embeddings') return void response.writeHead(404).end()
      let body: { model?: string; input?: string | string[] }
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body
      } catch {
        return void response.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"not JSON"}}')
      }
      const inputs = typeof body.input === 'string' ? [body.input] : (body.input ?? [])
      const data = inputs.map((text, index) => ({ object: 'embedding', index, embedding: textVector(text) }))
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', model: body.model, data }))
    })
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  answerParent<'url'>(async () => `http://127.0.0.1:${port}/v1`)
}

if (process.argv.includes(CHILD_ROLE)) await serve()
