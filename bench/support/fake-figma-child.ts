/**
 * The fake Figma API (test/support/fake-figma.ts) in a forked process of its own (see child.ts), so its
 * rendering and its latency timers never count in the server's CPU, event loop or RSS. It serves one
 * file of `frames` top-level frames (each with two shapes inside) on one page.
 */
import { startFakeFigma, type FakeFigma, type FakeFigmaEndpoint } from '../../test/support/fake-figma.js'
import { answerParent, forkChild } from './child.js'

const CHILD_ROLE = '--fake-figma'

export interface FakeFigmaSetup {
  token: string
  fileKey: string
  frames: number
  latencyMs: number
}

type Message = { kind: 'start'; setup: FakeFigmaSetup } | { kind: 'edit'; count: number } | { kind: 'calls' } | { kind: 'reset' }

export interface FakeFigmaChild {
  /** FIGMA_API_URL and OUTBOUND_ALLOWLIST for the app. */
  env: Record<string, string>
  /** Changes the content of the first `count` frames, spread over the file; their ids. */
  edit(count: number): Promise<string[]>
  /** Requests per endpoint since the start or the last reset. */
  calls(): Promise<Record<FakeFigmaEndpoint, number>>
  reset(): Promise<void>
  stop(): void
}

export async function startFakeFigmaChild(setup: FakeFigmaSetup): Promise<FakeFigmaChild> {
  const child = await forkChild(new URL(import.meta.url), [CHILD_ROLE])
  const env = await child.ask<Record<string, string>>({ kind: 'start', setup } satisfies Message)
  return {
    env,
    edit: (count) => child.ask<string[]>({ kind: 'edit', count } satisfies Message),
    calls: () => child.ask({ kind: 'calls' } satisfies Message),
    reset: async () => void (await child.ask({ kind: 'reset' } satisfies Message)),
    stop: () => child.stop(),
  }
}

function runFakeFigma(): void {
  let fake: FakeFigma | undefined
  let frameIds: string[] = []
  let fileKey = ''
  answerParent(async (message: Message) => {
    if (message.kind === 'start') {
      const { setup } = message
      fake = await startFakeFigma({ latencyMs: setup.latencyMs })
      fake.addToken(setup.token)
      fileKey = setup.fileKey
      const file = fake.file(fileKey, `Bench ${setup.frames} frames`)
      frameIds = file.addFrames(file.addPage('Screens'), setup.frames, 'Screen')
      return fake.env
    }
    if (!fake) throw new Error('the fake is not started')
    if (message.kind === 'edit') {
      const step = Math.max(1, Math.floor(frameIds.length / message.count))
      const edited = Array.from({ length: message.count }, (_, i) => frameIds[i * step]!)
      for (const id of edited) fake.file(fileKey).edit(id)
      return edited
    }
    if (message.kind === 'calls') return { ...fake.calls }
    fake.reset()
    return null
  })
}

if (process.argv.includes(CHILD_ROLE)) runFakeFigma()
