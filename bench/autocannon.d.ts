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
  export default function autocannon(options: Options): Promise<Result>
}
