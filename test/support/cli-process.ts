import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'

/**
 * The command line's test harness: the real executable on the embedded default, as a newcomer runs it,
 * in separate processes on real sockets, over a data directory of the test file's own. Shared by the
 * files that split its tests, so they run beside each other.
 */
/** The real executable on the embedded default, as a newcomer runs it: separate processes, real sockets. */
export const CLI = [process.execPath, '--import', 'tsx', 'src/cli.ts']

let dataDir = ''
/** Every process a test file started, killed at its end whatever happened. */
export const running: ChildProcess[] = []

/**
 * The test file's data directory, made before its tests and removed after them, with every process
 * still running: call once at the top of a test file; returns the directory's getter.
 */
export function useCliDataDir(): () => string {
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'al-cli-'))
  })
  afterAll(() => {
    for (const child of running) child.kill('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  })
  return () => dataDir
}

export function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { DATABASE_URL: _db, REDIS_URL: _redis, NODE_ENV: _env, ...rest } = process.env
  return { ...rest, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', SHUTDOWN_DRAIN_MS: '0', ...extra }
}

export interface Server {
  child: ChildProcess
  url: string
  output: () => string
  exited: Promise<number | null>
}

export async function startServer(extra: Record<string, string> = {}): Promise<Server> {
  const child = spawn(CLI[0]!, [...CLI.slice(1), 'serve'], { env: env(extra), stdio: ['ignore', 'pipe', 'pipe'] })
  running.push(child)
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const url = await new Promise<string>((resolve, reject) => {
    const check = setInterval(() => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (match) {
        clearInterval(check)
        resolve(match[1]!)
      }
    }, 50)
    void exited.then((code) => {
      clearInterval(check)
      reject(new Error(`server exited with ${code}:\n${output}`))
    })
  })
  return { child, url, output: () => output, exited }
}

export function runCli(args: string[], extra: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(CLI[0]!, [...CLI.slice(1), ...args], { env: env(extra), stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
    child.once('exit', (code) => resolve({ code, stdout, stderr }))
  })
}
