import type { ServerOptions } from 'node:http'
import { Socket } from 'node:net'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { sendProblem } from './error-handler.js'
import { AppError } from './errors.js'

/** How long the HTTP server waits for a client (see "Slow clients and timeouts" in docs/operations.md). */
export interface HttpTimeouts {
  /** From the connection (or the end of the previous request) to the end of the headers. */
  headersMs: number
  /** A request body that receives nothing for this long is answered 408. */
  bodyIdleMs: number
  /** The whole request, headers and body, must arrive within this (a 25 MiB upload on a slow link fits). */
  requestMs: number
  /** An idle connection between requests is closed after this. */
  keepAliveMs: number
}

/**
 * The deadlines Node enforces itself: headers and whole requests (answered 408 by `clientErrorHandler`)
 * and idle keep-alive connections. Node looks for late requests every `connectionsCheckingInterval`
 * (30 s by default, which would double a 15 s headers timeout), so it looks about every second here.
 */
export function serverTimeoutOptions(timeouts: HttpTimeouts): { requestTimeout: number; keepAliveTimeout: number; http: ServerOptions } {
  return {
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: {
      headersTimeout: timeouts.headersMs,
      // Node checks headersTimeout <= requestTimeout when the server is created, before Fastify sets it.
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(timeouts.headersMs / 4)),
    },
  }
}

/**
 * A request body that receives nothing for `idleMs` is answered 408 `request_timeout` and its
 * connection closed. The socket's idle timer measures it: Node's parser refreshes that timer on every
 * byte it reads, so nothing here reads the body (a 'data' listener would take bytes from the parser
 * that reads it later). Node emits the timer's 'timeout' on the request only while its body is
 * incomplete; once the answer is under way the rule no longer applies, so a long handler or a slow
 * download keeps its connection.
 */
export function answerStalledBodies(app: FastifyInstance, idleMs: number): void {
  app.addHook('onRequest', (request, reply, done) => {
    // Injected requests (app.inject) have no socket to be slow on.
    if (request.raw.socket instanceof Socket && hasBody(request)) watchBody(request, reply, idleMs)
    done()
  })
}

function hasBody(request: FastifyRequest): boolean {
  const { headers } = request.raw
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0')
}

function watchBody(request: FastifyRequest, reply: FastifyReply, idleMs: number): void {
  const { raw } = request
  const socket = raw.socket
  raw.setTimeout(idleMs, () => {
    // Bytes waiting to be read: the server is the slow side (the socket is paused), not the client.
    if (raw.readableLength > 0) return
    if (reply.sent || reply.raw.headersSent) {
      // Answered before the body was read (a 401, a 413): the client has its answer, drop the rest.
      socket.destroy()
      return
    }
    reply.header('connection', 'close')
    void sendProblem(reply, new AppError('request_timeout', `The request body stopped arriving: nothing came for ${idleMs / 1000} s.`))
  })
  // The same timer firing while the answer is prepared or sent: Node would close the socket unless told
  // otherwise; the answer's pace is the client's to set.
  reply.raw.on('timeout', () => {
    if (raw.complete) socket.setTimeout(0)
  })
  // Answered before the body arrived: Node, finishing the answer, puts the keep-alive timer in place of
  // the idle one while it drains the rest of the body. The rest must keep arriving like any body.
  reply.raw.once('finish', () => {
    if (!raw.complete) socket.setTimeout(idleMs)
  })
}
