import { expect } from 'vitest'
import type { BuiltApp } from '../../src/app.js'
import type { ImportRecord } from '../../src/modules/imports/schemas.js'
import { bearer } from './app.js'
import { waitFor } from './wait.js'

/** Rate limits out of the way: import tests make many calls in a short time. */
export const IMPORT_TEST_ENV = {
  RATE_LIMIT_EXPENSIVE: '10000',
  RATE_LIMIT_CHEAP: '10000',
  RATE_LIMIT_STANDARD: '10000',
  FIGMA_REQUEST_TIMEOUT_MS: '3000',
  FIGMA_MAX_RETRY_WAIT_MS: '1500',
}

export const FIGMA_TOKEN = 'figd_test-token-0123456789'

/** A Figma design link to the file (and node). */
export function figmaLink(fileKey: string, nodeId?: string): string {
  return `https://www.figma.com/design/${fileKey}/Brand-kit${nodeId ? `?node-id=${nodeId.replace(':', '-')}` : ''}`
}

/** POST /api/v1/imports; expects the 202. */
export async function createImport(app: BuiltApp, key: string, body: Record<string, unknown>): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/imports', headers: bearer(key), payload: { source: 'figma', figma_token: FIGMA_TOKEN, ...body } })
  expect(res.statusCode, res.body).toBe(202)
  const { import_id: id } = res.json<{ import_id: string }>()
  expect(res.headers.location).toBe(`/api/v1/imports/${id}`)
  return id
}

export async function getImport(app: BuiltApp, key: string, id: string): Promise<ImportRecord> {
  const res = await app.inject({ method: 'GET', url: `/api/v1/imports/${id}`, headers: bearer(key) })
  expect(res.statusCode, res.body).toBe(200)
  return res.json<ImportRecord>()
}

/** The import once its run has ended (done or failed). */
export function importEnded(app: BuiltApp, key: string, id: string, timeoutMs = 15_000): Promise<ImportRecord> {
  return waitFor(
    `import ${id} to end`,
    async () => {
      const record = await getImport(app, key, id)
      return record.status === 'done' || record.status === 'failed' ? record : undefined
    },
    timeoutMs,
  )
}

/** The asset with this `external_id`, or undefined. */
export async function assetByExternalId(app: BuiltApp, key: string, externalId: string): Promise<Record<string, unknown> | undefined> {
  const res = await app.inject({ method: 'GET', url: `/api/v1/assets?external_id=${encodeURIComponent(externalId)}`, headers: bearer(key) })
  expect(res.statusCode, res.body).toBe(200)
  return res.json<{ data: Record<string, unknown>[] }>().data[0]
}

/** The node ids each `images` call of the fake was asked to render, in order. */
export function renderedIds(requests: readonly { url: string }[]): string[] {
  return requests
    .filter((request) => request.url.startsWith('/v1/images/'))
    .flatMap((request) => new URL(request.url, 'http://fake').searchParams.get('ids')?.split(',') ?? [])
}
