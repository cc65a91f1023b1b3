// autocannon ships no types; this covers the part of its programmatic API the benchmarks use.
declare module 'autocannon' {
  export interface Options {
    url: string
    connections?: number
    /** Seconds. */
    duration?: number
    headers?: Record<string, string>
  }
  export interface Histogram {
    average: number
    p50: number
    p99: number
    max: number
    /** On `requests`: how many completed. */
    total: number
  }
  export interface Result {
    requests: Histogram
    /** Whole milliseconds. */
    latency: Histogram
    errors: number
    timeouts: number
    non2xx: number
  }
  /** The running benchmark: awaitable for its result, and an emitter of each response as it completes. */
  export interface Instance extends PromiseLike<Result> {
    /** `responseTime` in milliseconds with sub-millisecond precision (the result's histogram keeps whole ones). */
    on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this
  }
  export default function autocannon(options: Options): Instance
}
