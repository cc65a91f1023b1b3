import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'vite'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    webDir: string
  }
}

/** Builds the web app once for the end-to-end tests, into a directory of their own (never web/dist). */
export default async function setup(project: TestProject) {
  const webDir = mkdtempSync(join(tmpdir(), 'asset-library-web-'))
  await build({ configFile: join(import.meta.dirname, '..', '..', 'web', 'vite.config.ts'), logLevel: 'warn', build: { outDir: webDir, emptyOutDir: true } })
  project.provide('webDir', webDir)
  return () => rmSync(webDir, { recursive: true, force: true })
}
