// The part of autocannon's programmatic API that rotating-load.ts adds to bench/autocannon.d.ts
// (declarations of the same module merge): a request built anew before each send, and a body check.
declare module 'autocannon' {
  export interface RequestData {
    method: string
    path: string
    headers: Record<string, string>
    body?: string | Buffer
  }
  export interface Request {
    /** Called before every send of this request; returns what to send. */
    setupRequest?: (request: RequestData) => RequestData
  }
  export interface Options {
    requests?: Request[]
    /** A response whose body fails this counts as a mismatch (and not as a response). */
    verifyBody?: (body: string) => boolean
  }
  export interface Result {
    mismatches: number
  }
}
