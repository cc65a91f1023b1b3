import { afterEach, describe, expect, it } from 'vitest'
import { IMPORT_EXAMPLE, IMPORT_NODE_EXAMPLE } from '../../../src/modules/imports/schemas.js'
import { startServer, type TestServer } from '../../../test/support/http-server.js'
import { staysTrue } from '../../../test/support/wait.js'
import { createClient, type Import } from '../src/index.js'

/** `imports.wait` and `imports.nodes`: looks at an import until its run ends, against a real loopback server answering its states in turn. */

let server: TestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const ID = IMPORT_EXAMPLE.id
const state = (status: Import['status'], created: number): Import => ({ ...IMPORT_EXAMPLE, status, created, failed: 0, finished_at: status === 'done' ? IMPORT_EXAMPLE.finished_at : null })

/** Answers GET /api/v1/imports/{ID} with these records in turn, the last one forever; counts the looks. */
async function importServer(...records: Import[]) {
  const looks: string[] = []
  server = await startServer((request, response) => {
    looks.push(`${request.method} ${request.url}`)
    const record = records[Math.min(looks.length - 1, records.length - 1)]
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(record))
  })
  return { client: createClient({ baseUrl: server.url, apiKey: 'al_test_key' }), looks }
}

describe('imports.wait', () => {
  it('looks until the run ends, showing each look to onProgress, and answers the ended record', async () => {
    const { client, looks } = await importServer(state('queued', 0), state('running', 1), state('running', 2), state('done', 3))
    const seen: string[] = []
    const ended = await client.imports.wait(ID, { intervalMs: 10, onProgress: (record) => seen.push(`${record.status} ${record.created}`) })
    expect(ended).toEqual(state('done', 3))
    expect(seen).toEqual(['queued 0', 'running 1', 'running 2', 'done 3'])
    expect(looks).toEqual(Array(4).fill(`GET /api/v1/imports/${ID}`))
  })

  it('answers a failed import as ended too', async () => {
    const failed = { ...state('failed', 0), error: { code: 'figma_token_invalid', detail: 'Figma refused the token.' } }
    const { client, looks } = await importServer(state('running', 0), failed)
    expect(await client.imports.wait(ID, { intervalMs: 10 })).toEqual(failed)
    expect(looks).toHaveLength(2)
  })

  it('stops looking when its signal aborts, rejecting with the signal\u2019s reason', async () => {
    const { client, looks } = await importServer(state('running', 0))
    const stop = new AbortController()
    const reason = new Error('stopped')
    const waiting = client.imports.wait(ID, { intervalMs: 10, signal: stop.signal, onProgress: () => looks.length === 3 && stop.abort(reason) })
    await expect(waiting).rejects.toBe(reason)
    expect(looks).toHaveLength(3)
    // Five intervals later, still no other look.
    await staysTrue('no look after the abort', () => looks.length === 3, 50)
  })
})

describe('imports.nodes', () => {
  it('reads a page of the run\u2019s nodes with its filter, and iterateNodes walks every page', async () => {
    const nodes = ['1:1', '1:2', '1:3'].map((nodeId) => ({ ...IMPORT_NODE_EXAMPLE, node_id: nodeId }))
    const looks: string[] = []
    server = await startServer((request, response) => {
      looks.push(request.url ?? '')
      const query = new URL(request.url ?? '/', 'http://sdk').searchParams
      const offset = Number(query.get('offset') ?? 0)
      const limit = Number(query.get('limit') ?? 50)
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: nodes.slice(offset, offset + limit), total: nodes.length, limit, offset }))
    })
    const client = createClient({ baseUrl: server.url, apiKey: 'al_test_key' })
    expect(await client.imports.nodes(ID, { outcome: 'updated', limit: 2 })).toEqual({ data: nodes.slice(0, 2), total: 3, limit: 2, offset: 0 })
    expect(looks).toEqual([`/api/v1/imports/${ID}/nodes?outcome=updated&limit=2`])
    const every: string[] = []
    for await (const node of client.imports.iterateNodes(ID, { limit: 2 })) every.push(node.node_id)
    expect(every).toEqual(['1:1', '1:2', '1:3'])
    expect(looks.slice(1)).toEqual([`/api/v1/imports/${ID}/nodes?limit=2&offset=0`, `/api/v1/imports/${ID}/nodes?limit=2&offset=2`])
  })
})
