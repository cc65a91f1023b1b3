import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface TestServer {
  url: string
  hits: string[]
  close(): Promise<void>
}

/** A real HTTP server on 127.0.0.1 (port chosen by the OS) that records the paths it was asked for. */
export async function startServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  const hits: string[] = []
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '')
    handler(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * A proxy on 127.0.0.1 to `target`, recording the paths it forwards in `hits` and adding `headers` to each
 * request. The Host header goes as the client sent it (an S3 request's signature covers it).
 */
export function startProxy(target: string, headers: Record<string, string> = {}): Promise<TestServer> {
  const upstream = new URL(target)
  return startServer((incoming, answer) => {
    const forwarded = request({ host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, ...headers } }, (response) => {
      answer.writeHead(response.statusCode!, response.headers)
      response.pipe(answer)
    })
    forwarded.on('error', (error) => answer.destroy(error))
    incoming.pipe(forwarded)
  })
}
