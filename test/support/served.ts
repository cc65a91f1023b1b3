import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serverTimeoutOptions } from '../../src/platform/http/slow-clients.js'
import type { TestAppOptions } from './app.js'
import { startTwoOrganizations } from './fixtures.js'

/** The app on a real socket on 127.0.0.1, its public URL that socket's, as `serve` would run it. */
export async function startServed(options: TestAppOptions = {}) {
  const socket: Server = createServer()
  await new Promise<void>((resolve) => socket.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(socket.address() as AddressInfo).port}`
  const orgs = await startTwoOrganizations({ ...options, env: { PUBLIC_BASE_URL: url, ...options.env } })
  // The timeouts `serve` sets. Node's default 5 s keep-alive would close a pooled connection while this
  // process, client and server in one event loop, is busy making a 35 MB message to send on it.
  const { requestTimeout, keepAliveTimeout, http } = serverTimeoutOptions(orgs.t.config.httpTimeouts)
  Object.assign(socket, { requestTimeout, keepAliveTimeout, headersTimeout: http.headersTimeout })
  socket.on('request', (request, response) => orgs.t.app.routing(request, response))
  return {
    ...orgs,
    url,
    async close() {
      socket.closeAllConnections()
      await new Promise<void>((resolve) => socket.close(() => resolve()))
      await orgs.t.close()
    },
  }
}
