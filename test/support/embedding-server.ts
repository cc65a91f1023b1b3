import type { IncomingMessage, ServerResponse } from 'node:http'
import { startServer, type TestServer } from './http-server.js'

/**
 * Words of one group share a dimension, so "automobile" lands next to "car" with no word in common.
 * Other words hash onto the dimensions after the groups.
 */
export const CONCEPTS = [
  ['car', 'cars', 'automobile', 'automobiles', 'vehicle', 'vehicles', 'sedan', 'truck'],
  ['dog', 'dogs', 'puppy', 'puppies', 'cat', 'cats', 'kitten', 'pet', 'pets'],
  ['pizza', 'burger', 'food', 'meal', 'sandwich', 'dinner'],
  ['forest', 'tree', 'trees', 'mountain', 'mountains', 'landscape'],
  ['ocean', 'sea', 'beach', 'wave', 'waves', 'surf'],
]

export const DIMENSIONS = 256

/** Labels of the service's embedding text ("Tags: …") and function words: a real model weighs them lightly, this one not at all. */
const IGNORED = new Set(['tags', 'type', 'client', 'product', 'a', 'an', 'the', 'at', 'for', 'of', 'and'])

export interface EmbeddingServer extends TestServer {
  /** `${url}/v1`, the EMBEDDING_BASE_URL to configure. */
  baseUrl: string
  /** Every text sent, in order, across requests. */
  inputs: string[]
  /** How many texts each request carried. */
  batches: number[]
  requests(): number
  /** Answer every request with this status, or hang (never answer) until reset. */
  fail(status: number | 'hang' | null): void
  /** Answer vectors of this length instead (a provider whose model differs from the configuration). */
  answerDimensions(dimensions: number | null): void
  /** Refuse (400) any request carrying a text that contains this, as a provider refuses an over-long input. */
  refuseTextsWith(fragment: string | null): void
}

/** The test provider's vector for a text: deterministic, normalised. */
export function conceptVector(text: string, dimensions = DIMENSIONS): number[] {
  const vector = new Array<number>(dimensions).fill(0)
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w && !IGNORED.has(w))) {
    const group = CONCEPTS.findIndex((words) => words.includes(word))
    vector[group >= 0 ? group : CONCEPTS.length + (hash(word) % (dimensions - CONCEPTS.length))]! += 1
  }
  const norm = Math.hypot(...vector) || 1
  return vector.map((value) => value / norm)
}

function hash(word: string): number {
  let h = 2166136261
  for (const char of word) h = Math.imul(h ^ char.codePointAt(0)!, 16777619)
  return h >>> 0
}

/** A real HTTP server on 127.0.0.1 speaking the OpenAI embeddings protocol, counting what it is sent. */
export async function startEmbeddingServer(): Promise<EmbeddingServer> {
  const inputs: string[] = []
  const batches: number[] = []
  let requests = 0
  let failure: number | 'hang' | null = null
  let dimensions: number | null = null
  let refused: string | null = null
  const server = await startServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') return void res.writeHead(404).end()
      requests += 1
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string; input: string[] }
      inputs.push(...body.input)
      batches.push(body.input.length)
      if (failure === 'hang') return
      if (failure !== null) return void res.writeHead(failure, { 'content-type': 'application/json' }).end('{"error":{"message":"overloaded"}}')
      if (refused !== null && body.input.some((text) => text.includes(refused!))) {
        return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"input too long"}}')
      }
      const data = body.input.map((text, index) => ({ object: 'embedding', index, embedding: conceptVector(text, dimensions ?? DIMENSIONS) }))
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', model: body.model, data }))
    })
  })
  return {
    ...server,
    baseUrl: `${server.url}/v1`,
    inputs,
    batches,
    requests: () => requests,
    fail: (status) => {
      failure = status
    },
    answerDimensions: (value) => {
      dimensions = value
    },
    refuseTextsWith: (fragment) => {
      refused = fragment
    },
  }
}
