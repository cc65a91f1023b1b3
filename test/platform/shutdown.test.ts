import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/app.js'

let t: TestApp
let release: () => void
const released = new Promise<void>((resolve) => (release = resolve))

beforeAll(async () => {
  t = await startTestApp({
    routes: (app) => {
      app.get('/test/slow', async () => {
        await released
        return { finished: true }
      })
    },
  })
})
afterAll(() => t.close())

describe('graceful shutdown', () => {
  it('finishes a request in flight, then stops accepting connections', async () => {
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' })
    const inFlight = fetch(`${url}/test/slow`)
    await new Promise((resolve) => setTimeout(resolve, 50))
    let closed = false
    const closing = t.app.close().then(() => (closed = true))
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(closed).toBe(false)
    release()
    const res = await inFlight
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ finished: true })
    await closing
    await expect(fetch(`${url}/health`)).rejects.toThrow()
  })
})
