import type { Options } from './arguments.js'

/** The data as JSON with `--json`, else the text; exit code 0. */
export function output(values: Options, data: unknown, text: string): number {
  return print(values.json ? JSON.stringify(data, null, 2) : text)
}

export function print(text: string): number {
  process.stdout.write(`${text}\n`)
  return 0
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
