import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

const server = {
  globalSetup: ['test/support/global-setup.ts'],
  pool: 'forks' as const,
  testTimeout: 30_000,
  hookTimeout: 60_000,
}

/**
 * Three projects: the server's tests (each file on its own database), the web app's components in
 * happy-dom, and the end-to-end tests that drive the built app in Debian's Chromium.
 */
export default defineConfig({
  test: {
    reporters: ['default'],
    projects: [
      { test: { name: 'server', include: ['test/**/*.test.ts'], exclude: ['test/e2e/**'], ...server } },
      {
        plugins: [react()],
        test: { name: 'web', include: ['web/src/**/*.test.{ts,tsx}'], environment: 'happy-dom', setupFiles: ['web/src/test-setup.ts'] },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          ...server,
          globalSetup: [...server.globalSetup, 'test/e2e/build-web.ts'],
          testTimeout: 60_000,
        },
      },
    ],
  },
})
