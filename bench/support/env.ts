/** A bench's setting from the environment: a positive whole number, `fallback` when unset. */
export function envNumber(name: string, fallback: number): number {
  return positive(name, Number(process.env[name] ?? fallback))
}

/** A comma-separated list of positive whole numbers, such as `BENCH_CONNECTIONS=1,10`. */
export function envList(name: string, fallback: string): number[] {
  return (process.env[name] ?? fallback).split(',').map((value) => positive(name, Number(value)))
}

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number (or a comma-separated list of them)`)
  return value
}
