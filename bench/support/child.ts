import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** A forked load client: the server under test keeps its process, and its CPU time, to itself. */
export interface Child {
  /** Sends one message and waits for the child's answer to it. */
  ask<T>(message: unknown): Promise<T>
  stop(): void
}

/**
 * Forks `script` (with `args`) and waits until it says it is ready, so fork() and the child's own
 * start-up stay outside every measured window.
 */
export async function forkChild(script: URL, args: string[] = []): Promise<Child> {
  const child: ChildProcess = fork(fileURLToPath(script), args)
  const answer = <T>() =>
    new Promise<T>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the bench client exited with code ${code} before answering`))
      child.once('exit', onExit)
      child.once('message', (message) => {
        child.off('exit', onExit)
        resolve(message as T)
      })
    })
  await answer<'ready'>()
  return {
    ask<T>(message: unknown) {
      const answered = answer<T>()
      child.send(message as object)
      return answered
    },
    stop() {
      if (child.connected) child.disconnect()
      if (child.exitCode === null) child.kill()
    },
  }
}

/** Child side: answers every message with what `handle` returns; exits when the parent disconnects. */
export function answerParent<M>(handle: (message: M) => Promise<unknown>): void {
  process.on('message', async (message: M) => process.send!(await handle(message)))
  process.on('disconnect', () => process.exit(0))
  process.send!('ready')
}

/** The value below which `p` percent of the values fall (nearest rank); NaN for none. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN
}
