/**
 * The service's MCP tools over stdio, for desktop clients that start a local command rather than
 * connect to a URL (`asset-library-client mcp`). Node only: the browser entry never imports it.
 *
 * A relay, not a second server: each JSON-RPC message read on stdin is POSTed as it is to `<url>/mcp`
 * with the key as bearer token, and each answer is written back on stdout. So the tools, their scopes
 * (a read key lists only the read tools), validation and limits are exactly the server's.
 */
import type { Readable, Writable } from 'node:stream'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { isInitializeRequest, isJSONRPCRequest, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js'

export interface BridgeOptions {
  /** The service's base URL, as for the API client (`https://assets.example.com`); the bridge talks to `<url>/mcp`. */
  url: string
  apiKey: string
  /** Where the MCP client's messages are read: the process's stdin unless given. */
  stdin?: Readable
  /** Where the answers are written: the process's stdout unless given. */
  stdout?: Writable
  /** Where each failure is reported, one line each: the process's stderr unless given. */
  stderr?: Writable
}

/**
 * JSON-RPC's range for errors an implementation defines: the bridge answers with it when the server
 * could not answer at all (refused key, unreachable), so the client sees why instead of waiting.
 */
export const BRIDGE_FAILURE = -32000

/** A POST to the server answered with an HTTP error: its status and what the server said about it. */
class ServerRefusal extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {
    super(reason)
  }
}

/**
 * Serves MCP on stdin/stdout, relaying every message to the service at `url`, until stdin ends.
 * Messages in flight when it ends are still answered. A message the server cannot answer (a bad or
 * revoked key, a server that is down) is answered with a JSON-RPC error saying so, and reported as
 * one line on stderr; the bridge goes on with the next message.
 */
export async function bridgeMcp({ url, apiKey, stdin = process.stdin, stdout = process.stdout, stderr = process.stderr }: BridgeOptions): Promise<void> {
  const endpoint = mcpEndpoint(url)
  const server = new StreamableHTTPClientTransport(endpoint, {
    requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
    fetch: refusingHttpErrors,
  })
  const local = new StdioServerTransport(stdin, stdout)
  const initializeIds = new Set<RequestId>()
  const inFlight = new Set<Promise<void>>()
  const report = (message: string) => stderr.write(`asset-library-client mcp: ${message}\n`)

  server.onmessage = (message) => {
    // The server checks the protocol version header against the one initialize agreed on, as a direct client would send it.
    if ('result' in message && initializeIds.delete(message.id)) {
      server.setProtocolVersion(String(message.result.protocolVersion))
    }
    void local.send(message)
  }
  local.onerror = (error) => report(`cannot read a message on stdin: ${error.message}`)
  local.onmessage = (message: JSONRPCMessage) => {
    if (isJSONRPCRequest(message) && isInitializeRequest(message)) initializeIds.add(message.id)
    const relay = server.send(message).catch(async (error: unknown) => {
      const failure = describeFailure(error, endpoint)
      report(failure.message)
      if (isJSONRPCRequest(message)) {
        await local.send({ jsonrpc: '2.0', id: message.id, error: { code: BRIDGE_FAILURE, message: failure.message, data: failure.data } })
      }
    })
    inFlight.add(relay)
    void relay.finally(() => inFlight.delete(relay))
  }

  const ended = new Promise<void>((resolve) => {
    stdin.once('end', resolve)
    stdin.once('close', resolve)
  })
  await server.start()
  await local.start()
  await ended
  while (inFlight.size) await Promise.allSettled([...inFlight])
  await server.close()
  await local.close()
}

function mcpEndpoint(url: string): URL {
  const base = new URL(url)
  base.pathname = `${base.pathname.replace(/\/+$/, '')}/mcp`
  return base
}

/**
 * fetch, except that a POST answered with an HTTP error throws it with the server's own words (the
 * problem's title and detail), which the SDK's transport would otherwise fold into a generic message.
 * Other requests pass untouched: the transport's GET for a server stream expects 405 from this server.
 */
async function refusingHttpErrors(input: string | URL, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init)
  if (response.ok || init?.method !== 'POST') return response
  throw new ServerRefusal(response.status, await refusalReason(response))
}

async function refusalReason(response: Response): Promise<string> {
  const text = await response.text().catch(() => '')
  try {
    const body = JSON.parse(text) as { title?: string; detail?: string; code?: string; error?: { message?: string } }
    if (body.error?.message) return body.error.message
    if (body.title) return `${body.title}${body.code ? ` (${body.code})` : ''}${body.detail ? `: ${body.detail}` : ''}`
  } catch {
    // Not JSON (a proxy's error page): its status says enough.
  }
  return response.statusText || 'no reason given'
}

/** What to check for the refusals a configuration mistake causes, in the command line's variables. */
const HINTS: Record<number, string> = {
  401: ' Check ASSET_LIBRARY_KEY: the key is wrong, expired or revoked.',
  404: ' Check ASSET_LIBRARY_URL: the service\'s address, without /mcp.',
}

function describeFailure(error: unknown, endpoint: URL): { message: string; data: Record<string, unknown> } {
  if (error instanceof ServerRefusal) {
    const hint = HINTS[error.status] ?? ''
    const reason = /[.!?]$/.test(error.reason) ? error.reason : `${error.reason}.`
    return { message: `${endpoint} answered HTTP ${error.status}: ${reason}${hint}`, data: { status: error.status } }
  }
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : ''
  const reason = error instanceof Error ? error.message : String(error)
  return { message: `cannot reach ${endpoint} (${reason}${cause}). Check ASSET_LIBRARY_URL and that the service is running.`, data: {} }
}
