import { readFileSync } from 'node:fs'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { defaultServerConditions } from 'vite'
import { workspaceSource } from './web/vite.config.js'

/**
 * Server test files whose outcome cannot depend on the database under test: pure units, and the CLI's
 * tests, which run the real executable on data directories of their own (the embedded database, as a
 * newcomer runs it) whatever TEST_DATABASE_URL says. They run once (`npm test`, CI's embedded pass).
 * Every other server test file is database-bound and runs on both (CI's PostgreSQL pass is
 * `--project db`). A listed file that starts to use the database under test fails loudly: the `unit`
 * project prepares no template (so `startTestApp` and `createTestDatabase` throw), and a file that
 * reads TEST_DATABASE_URL or TEST_REDIS_URL is refused below.
 */
const UNIT_TESTS = [
  'test/cli.test.ts',
  'test/cli-commands.test.ts',
  'test/config.test.ts',
  'test/modules/figma-client.test.ts',
  'test/modules/figma-integration-unit.test.ts',
  'test/modules/figma-url.test.ts',
  'test/modules/imports-select.test.ts',
  'test/modules/imports-worker.test.ts',
  'test/modules/rendition-spec.test.ts',
  'test/modules/webhook-signature.test.ts',
  'test/platform/address-policy.test.ts',
  'test/platform/blob-store.test.ts',
  'test/platform/embedding-provider.test.ts',
  'test/platform/foreground.test.ts',
  'test/platform/fresh-reads.test.ts',
  'test/platform/ids.test.ts',
  'test/platform/embedded-metadata.test.ts',
  'test/platform/images.test.ts',
  'test/platform/immich-ml-provider.test.ts',
  'test/platform/onnx-provider.test.ts',
  'test/platform/palette.test.ts',
  'test/platform/perceptual-hash.test.ts',
  'test/platform/provenance.test.ts',
  'test/platform/safe-fetch.test.ts',
  'test/platform/signed-urls.test.ts',
  'test/platform/structure.test.ts',
  'test/platform/svg.test.ts',
  'packages/client/test/cli-pacer.test.ts',
  'packages/client/test/cli-usage.test.ts',
  'packages/client/test/imports-wait.test.ts',
  'packages/client/test/operations.test.ts',
  'packages/client/test/retries.test.ts',
  'packages/client/test/webhooks.test.ts',
]
for (const file of UNIT_TESTS) {
  if (/TEST_DATABASE_URL|TEST_REDIS_URL/.test(readFileSync(new URL(file, import.meta.url), 'utf8'))) {
    throw new Error(`${file} reads the database under test: take it out of UNIT_TESTS in vitest.config.ts, so that it runs on both`)
  }
}

/**
 * Files that spend minutes mostly waiting: the CLI's real processes starting, and the literal upload at
 * 200 KiB/s. Vitest starts projects in name order and, on a fresh clone, larger files first; these start
 * first instead, so the other files run beside them rather than after them.
 */
const STARTED_FIRST = ['test/cli.test.ts', 'test/cli-commands.test.ts', 'test/platform/slow-clients.test.ts']

class StartWaitingFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const waits = (file: TestSpecification) => STARTED_FIRST.some((path) => file.moduleId.endsWith(`/${path}`))
    return [...sorted.filter(waits), ...sorted.filter((file) => !waits(file))]
  }
}

/**
 * The server's files import `@asset-library/client/webhooks` (src/webhooks.ts): from its source, like the
 * web app: a test run needs no build of the package (a workspace link, which Vitest transforms itself).
 */
const serverSource = {
  // Vitest's own default is Vite's server conditions without `module`; the workers get them as --conditions too.
  ssr: { resolve: { conditions: ['asset-library-source', ...defaultServerConditions.filter((condition) => condition !== 'module')] } },
}

/**
 * A worker process keeps its modules from one test file to the next (no isolation): each file imported
 * the whole app again, ~8 s of a loaded 2-core machine per file, which was a third of a pass's CPU (24
 * files of test/modules: import 202 s isolated, 39 s not). The files share no state but the module
 * cache: each builds its own app and database, and none mocks a module or changes the environment.
 */
/** Database-bound files that measure their own process's RSS: another file's heap in the worker would count. */
const OWN_PROCESS = ['test/modules/rendition-load.test.ts']

const server = {
  pool: 'forks' as const,
  isolate: false,
  testTimeout: 30_000,
  hookTimeout: 60_000,
}
const database = { ...server, globalSetup: ['test/support/global-setup.ts'] }

/**
 * Five projects: the server's unit tests, its database-bound tests (each file on its own database; those
 * that measure their process's memory in a process of their own),
 * the web app's components in happy-dom, and the end-to-end tests that drive the built app in
 * Debian's Chromium.
 */
export default defineConfig({
  test: {
    reporters: ['default'],
    // Most server test files wait on sockets, timers and databases: on 2 cores, 4 at once measured
    // fastest (the embedded pass, machine shared: 1 worker 737 s, 2 254 s, 3 274 s, 4 205 s).
    maxWorkers: 4,
    sequence: { sequencer: StartWaitingFilesFirst },
    projects: [
      { ...serverSource, test: { name: 'unit', include: UNIT_TESTS, ...server } },
      // The client package's tests against the real server are database-bound like the server's own.
      { ...serverSource, test: { name: 'db', include: ['test/**/*.test.ts', 'packages/client/test/**/*.test.ts'], exclude: ['test/e2e/**', ...UNIT_TESTS, ...OWN_PROCESS], ...database } },
      { ...serverSource, test: { name: 'db-own-process', include: OWN_PROCESS, ...database, isolate: true } },
      {
        plugins: [react()],
        resolve: workspaceSource,
        test: { name: 'web', include: ['web/src/**/*.test.{ts,tsx}'], environment: 'happy-dom', setupFiles: ['web/src/test-setup.ts'] },
      },
      {
        ...serverSource,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          ...database,
          globalSetup: [...database.globalSetup, 'test/e2e/build-web.ts'],
          testTimeout: 120_000,
          // A browser on a 2-core machine beside other test files: what a person would wait for, not 1 s.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
})
