import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/app.js'
import { deferred, waitFor } from '../support/wait.js'

let t: TestApp
const arrived = deferred()
const released = deferred()

beforeAll(async () => {
  t = await startTestApp({
    routes: (app) => {
      app.get('/test/slow', { config: { auth: { kind: 'public' } } }, async () => {
        arrived.resolve()
        await released.promise
        return { finished: true }
      })
    },
  })
})
afterAll(() => t.close())

/** Whether a new connection to the server of `url` is refused: it has stopped listening. */
function refusesConnections(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname)
    socket.once('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', () => resolve(true))
  })
}

describe('graceful shutdown', () => {
  it('finishes a request in flight, then stops accepting connections', async () => {
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' })
    const inFlight = fetch(`${url}/test/slow`)
    await arrived.promise
    let closed = false
    const closing = t.app.close().then(() => (closed = true))
    await waitFor('the server to stop listening', () => refusesConnections(url))
    expect(closed).toBe(false)
    released.resolve()
    const res = await inFlight
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ finished: true })
    await closing
    await expect(fetch(`${url}/health`)).rejects.toThrow()
  })
})
