import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { build } from 'vite'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    webDir: string
  }
}

/**
 * The web app for the end-to-end tests. E2E_WEB_DIR names a build already made from this checkout
 * (CI points it at web/dist right after `npm run build`, so the app is built once); without it the
 * app is built here, into a directory of its own (never web/dist, which may be stale).
 */
export default async function setup(project: TestProject) {
  const prebuilt = process.env.E2E_WEB_DIR
  if (prebuilt) {
    const webDir = resolve(prebuilt)
    if (!existsSync(join(webDir, 'index.html'))) throw new Error(`E2E_WEB_DIR=${prebuilt} holds no built web app (run npm run build:web)`)
    project.provide('webDir', webDir)
    return
  }
  const webDir = mkdtempSync(join(tmpdir(), 'asset-library-web-'))
  await build({ configFile: join(import.meta.dirname, '..', '..', 'web', 'vite.config.ts'), logLevel: 'warn', build: { outDir: webDir, emptyOutDir: true } })
  project.provide('webDir', webDir)
  return () => rmSync(webDir, { recursive: true, force: true })
}
