/**
 * A real `serve` in a process of its own (spawned, so the bench's own memory never counts), run as
 * built JavaScript like `npm start`, and its memory read from /proc/<pid>/status. Linux only.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createInterface } from 'node:readline'
import ts from 'typescript'

export const SAMPLE_MS = 50
const START_TIMEOUT_MS = 180_000
const STOP_TIMEOUT_MS = 20_000
export const MiB = 1024 * 1024

/** What /proc says about one process, in bytes. */
export interface Status {
  rss: number
  hwm: number
  anon: number
  file: number
}

export interface Server {
  pid: number
  baseUrl: string
  readyMs: number
  /** The API key the first start on an empty database prints. */
  apiKey: string | undefined
  atListening: Status
  /** The highest RSS of any process the server started (initdb) while it started, by its VmHWM. */
  childPeak: number
  stop(): Promise<void>
}

/**
 * `dir` with a copy of `tree`'s package.json (version.ts reads it) and a link to its node_modules, and
 * `tree`'s src/ as JavaScript in `dir`/dist: what `npm run build` makes, without the type check (so
 * tsx's loader, ~40 MiB, does not count). Returns the path of cli.js.
 */
export function transpiledServer(tree: string, dir: string): string {
  prepareAppDir(tree, dir)
  const source = join(tree, 'src')
  const walk = (from: string): string[] =>
    readdirSync(from, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(join(from, entry.name)) : [join(from, entry.name)]))
  for (const file of walk(source)) {
    const target = join(dir, 'dist', relative(source, file))
    mkdirSync(dirname(target), { recursive: true })
    if (file.endsWith('.js')) copyFileSync(file, target)
    else if (file.endsWith('.ts') && !file.endsWith('.d.ts')) {
      const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
        fileName: file,
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      })
      writeFileSync(target.replace(/\.ts$/, '.js'), outputText)
    }
  }
  return join(dir, 'dist', 'cli.js')
}

/** `dir` with `tree`'s package.json and a link to its node_modules, so that code in `dir` resolves `tree`'s packages. */
export function prepareAppDir(tree: string, dir: string): void {
  if (existsSync(join(dir, 'package.json'))) return
  mkdirSync(dir, { recursive: true })
  copyFileSync(join(tree, 'package.json'), join(dir, 'package.json'))
  symlinkSync(join(tree, 'node_modules'), join(dir, 'node_modules'), 'dir')
}

/** Spawns the server in `cwd` and waits until it logs that it listens; samples its children's RSS meanwhile. */
export async function startServer(phase: string, command: string[], env: Record<string, string>, cwd: string): Promise<Server> {
  const started = performance.now()
  const child = spawn(command[0]!, command.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr!.setEncoding('utf8').on('data', (text: string) => {
    stderr = (stderr + text).slice(-4000)
  })
  let childPeak = 0
  const watcher = setInterval(() => {
    for (const pid of descendants(child.pid!)) childPeak = Math.max(childPeak, status(pid)?.hwm ?? 0)
  }, SAMPLE_MS)
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  try {
    const { port, apiKey } = await new Promise<{ port: number; apiKey: string | undefined }>((resolve, reject) => {
      let apiKey: string | undefined
      const timer = setTimeout(() => reject(new Error(`${phase}: no "Server listening" within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS)
      void exited.then((code) => reject(new Error(`${phase}: the server exited with code ${code}: ${stderr.trim()}`)))
      createInterface({ input: child.stdout! }).on('line', (line) => {
        apiKey ??= /API key \(assets:write\):\s+(\S+)/.exec(line)?.[1]
        const listening = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(line)
        if (listening) {
          clearTimeout(timer)
          resolve({ port: Number(listening[1]), apiKey })
        }
      })
    })
    const readyMs = performance.now() - started
    clearInterval(watcher)
    return {
      pid: child.pid!,
      baseUrl: `http://127.0.0.1:${port}`,
      readyMs,
      apiKey,
      atListening: status(child.pid!),
      childPeak,
      stop: () => stopProcess(child, exited),
    }
  } catch (error) {
    clearInterval(watcher)
    await stopProcess(child, exited)
    throw error
  }
}

async function stopProcess(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
  await exited
  clearTimeout(timer)
}

/** Samples `pid`'s RSS every SAMPLE_MS until stopped; returns the highest. */
export function sampleRss(pid: number): { stop(): number } {
  let highest = status(pid).rss
  const timer = setInterval(() => {
    highest = Math.max(highest, status(pid)?.rss ?? 0)
  }, SAMPLE_MS)
  return {
    stop() {
      clearInterval(timer)
      return Math.max(highest, status(pid)?.rss ?? 0)
    },
  }
}

/** VmRSS, VmHWM, RssAnon and RssFile of `pid` (zeros once it is gone). */
export function status(pid: number): Status {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8')
  } catch {
    return { rss: 0, hwm: 0, anon: 0, file: 0 }
  }
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0) * 1024
  return { rss: field('VmRSS'), hwm: field('VmHWM'), anon: field('RssAnon'), file: field('RssFile') }
}

/** CPU time `pid` has used (all its threads, user and system), in clock ticks of 10 ms; 0 once it is gone. */
export function cpuTicks(pid: number): number {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return 0
  }
  // After the command's name in parentheses: state is field 3, utime and stime are fields 14 and 15.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  return Number(fields[11]) + Number(fields[12])
}

/** Every process below `pid`, from /proc/<pid>/task/<tid>/children. */
function descendants(pid: number): number[] {
  const found: number[] = []
  const visit = (parent: number) => {
    let tasks: string[]
    try {
      tasks = readdirSync(`/proc/${parent}/task`)
    } catch {
      return
    }
    for (const task of tasks) {
      let children: string
      try {
        children = readFileSync(`/proc/${parent}/task/${task}/children`, 'utf8')
      } catch {
        continue
      }
      for (const child of children.split(' ').filter(Boolean).map(Number)) {
        found.push(child)
        visit(child)
      }
    }
  }
  visit(pid)
  return found
}

export function mib(bytes: number): string {
  return (bytes / MiB).toFixed(0)
}
