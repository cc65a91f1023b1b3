import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { seedOrganization, startTestApp, type Seeded, type TestApp } from '../../../test/support/app.js'

export interface RunningServer {
  t: TestApp
  url: string
  acme: Seeded
  close(): Promise<void>
}

/** The real app on a real socket on 127.0.0.1, as `serve` runs it, with one seeded organization. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const socket = createServer()
  await new Promise<void>((resolve) => socket.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(socket.address() as AddressInfo).port}`
  const t = await startTestApp({ env: { PUBLIC_BASE_URL: url, ...env } })
  socket.on('request', (request, response) => t.app.routing(request, response))
  const acme = await seedOrganization(t.app, 'Acme Design')
  return {
    t,
    url,
    acme,
    async close() {
      socket.closeAllConnections()
      await new Promise<void>((resolve) => socket.close(() => resolve()))
      await t.close()
    },
  }
}
