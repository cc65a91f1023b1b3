import { request, type ClientRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { derivationNamed } from '../../src/platform/background/derivation.js'
import { bearer } from '../support/app.js'
import { callApi, pushImage } from '../support/fixtures.js'
import { solidPng } from '../support/images.js'
import { startServed } from '../support/served.js'
import { staysTrue, waitFor } from '../support/wait.js'

/** The analyses of a serving process leave the CPU to its costly requests (ForegroundActivity, wired in app.ts). */

let served: Awaited<ReturnType<typeof startServed>>

beforeAll(async () => {
  served = await startServed()
  await derivationNamed(served.t.app.services.derivations, 'palette')!.start()
})
afterAll(() => served?.close())

/** A push whose body is still arriving: in flight until destroyed; resolves once its headers are sent. */
async function pushInFlight(): Promise<ClientRequest> {
  const held = request(`${served.url}/api/v1/assets`, {
    method: 'POST',
    headers: { ...bearer(served.acme.writeKey), 'content-type': 'application/json', 'content-length': '1000000' },
  })
  held.on('error', () => undefined)
  await new Promise<void>((resolve) => held.write('{"image_base64": "', () => resolve()))
  return held
}

const colorsOf = async (id: string) => (await callApi(served.t.app, served.acme.readKey, 'GET', `/api/v1/assets/${id}`)).json<{ colors: unknown }>().colors

describe('the analyses and the pushes', () => {
  it('wait while a push is in flight, reads of the result do not hold them, and go on once the push has ended', async () => {
    const held = await pushInFlight()
    // Another push answers meanwhile: its palette job is queued, and waits for the first to end.
    const { id } = await pushImage(served.t.app, served.acme.writeKey, {}, await solidPng(30, 30, '#d02020'))
    await staysTrue('the palette waits while a push is in flight, however often its result is read', async () => (await colorsOf(id)) === null, 800)
    held.destroy()
    await waitFor('the palette is made once the push has ended', async () => Array.isArray(await colorsOf(id)))
    expect(await colorsOf(id)).toEqual([expect.objectContaining({ name: 'red' })])
  })
})
