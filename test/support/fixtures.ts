import type { LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import type { BuiltApp } from '../../src/app.js'
import type { Db } from '../../src/platform/db/index.js'
import { bearer, seedOrganization, startTestApp, type Seeded, type TestApp, type TestAppOptions } from './app.js'
import { bandedPicture, uniquePng } from './images.js'

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'

/** A call to the API with `key` as its bearer token, and `payload` as its JSON body when there is one. */
export function callApi(app: BuiltApp, key: string, method: Method, url: string, payload?: object): Promise<LightMyRequestResponse> {
  return app.inject({ method, url, headers: bearer(key), ...(payload && { payload }) })
}

export interface PushedImage {
  id: string
  /** The bytes pushed: a PNG no other push in this process sent, unless the caller gave its own. */
  image: Buffer
}

/** Pushes an image as JSON (`image`, or a unique PNG) with these fields, and expects a new asset. */
export async function pushImage(app: BuiltApp, key: string, fields: object = {}, image?: Buffer): Promise<PushedImage> {
  const bytes = image ?? (await uniquePng())
  const res = await callApi(app, key, 'POST', '/api/v1/assets', { image_base64: bytes.toString('base64'), ...fields })
  expect(res.statusCode, res.body).toBe(201)
  return { id: res.json<{ asset_id: string }>().asset_id, image: bytes }
}

/**
 * Three pictures whose titles say nothing (a camera's file names), their image embeddings made: `red`
 * (all red), `lookalike` (crimson with a blue band: red's nearest, less red than it) and `blue`. With the
 * fake Immich-ML service configured, a search for "red" ranks `red` first and `lookalike` second.
 */
export async function pushUntitledPictures(app: BuiltApp, key: string): Promise<{ red: string; lookalike: string; blue: string }> {
  const red = (await pushImage(app, key, { title: 'IMG_0001', created_by_ai: false }, await bandedPicture('#d42020', '#c01818'))).id
  const blue = (await pushImage(app, key, { title: 'IMG_0002', created_by_ai: false }, await bandedPicture('#2050d4'))).id
  const lookalike = (await pushImage(app, key, { title: 'IMG_0003', created_by_ai: false }, await bandedPicture('#c01818', '#2050d4'))).id
  await app.services.imageEmbeddings.drain()
  return { red, lookalike, blue }
}

/** An asset as GET /api/v1/assets/{id} answers, with the fields tests read typed. */
export interface AssetRecord extends Record<string, unknown> {
  id: string
  sha256: string
  original_url: string
  thumbnail_url: string
}

/** Pushes an image as `pushImage` does with the organization's write key, and reads the asset back with its read key. */
export async function pushAndRead(app: BuiltApp, seeded: Seeded, fields: object = {}, image?: Buffer): Promise<{ image: Buffer; record: AssetRecord }> {
  const pushed = await pushImage(app, seeded.writeKey, fields, image)
  const res = await callApi(app, seeded.readKey, 'GET', `/api/v1/assets/${pushed.id}`)
  expect(res.statusCode, res.body).toBe(200)
  return { image: pushed.image, record: res.json<AssetRecord>() }
}

/** The API as one organization calls it; each call may name another key. */
export interface OrganizationApi {
  /** A call with the organization's write key. */
  call(method: Method, url: string, payload?: object, key?: string): Promise<LightMyRequestResponse>
  /** A GET with its read key. */
  get(url: string, key?: string): Promise<LightMyRequestResponse>
  /** Pushes a unique PNG (as `pushImage`) with its write key; the new asset's id. */
  push(fields?: object, key?: string): Promise<string>
}

export function organizationApi(app: BuiltApp, seeded: Seeded): OrganizationApi {
  return {
    call: (method, url, payload, key = seeded.writeKey) => callApi(app, key, method, url, payload),
    get: (url, key = seeded.readKey) => callApi(app, key, 'GET', url),
    push: async (fields = {}, key = seeded.writeKey) => (await pushImage(app, key, fields)).id,
  }
}

export interface TwoOrganizations {
  t: TestApp
  /** The organization a test acts in. */
  acme: Seeded
  /** Another organization, which must never see Acme's things nor lend Acme its own. */
  globex: Seeded
}

/** An app with two organizations, Acme and Globex, each with its owner and a key of each scope. */
export async function startTwoOrganizations(options: TestAppOptions = {}): Promise<TwoOrganizations> {
  const t = await startTestApp(options)
  return { t, acme: await seedOrganization(t.app, 'Acme'), globex: await seedOrganization(t.app, 'Globex') }
}

/** Asserts a problem+json answer with this status and code, and returns its body. */
export function expectProblem(res: LightMyRequestResponse, status: number, code: string) {
  expect({ status: res.statusCode, code: res.json().code }, res.body).toEqual({ status, code })
  expect(res.headers['content-type']).toContain('application/problem+json')
  return res.json<{ code: string; detail?: string; errors?: Array<{ pointer: string; detail: string }> }>()
}

/** A 400 validation_failed whose field problems point at exactly these places. */
export function expectInvalid(res: LightMyRequestResponse, ...pointers: string[]) {
  const body = expectProblem(res, 400, 'validation_failed')
  expect([...new Set(body.errors?.map((e) => e.pointer))].sort()).toEqual([...pointers].sort())
}

/** Outbox rows of one organization and event, oldest first. */
export async function outboxEvents(db: Db, organizationId: string, event: string) {
  const rows = await db
    .selectFrom('outbox_events')
    .select(['payload'])
    .where('organization_id', '=', organizationId)
    .where('event', '=', event)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  return rows.map((row) => row.payload as Record<string, unknown>)
}
