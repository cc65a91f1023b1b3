import react from '@vitejs/plugin-react'
import { defaultClientConditions, defineConfig } from 'vite'

/**
 * `@asset-library/client` from its source (the package's `asset-library-source` export): the app is
 * built before the client package is (`npm start` on a fresh clone, CI), and it needs none of its build.
 */
export const workspaceSource = { conditions: ['asset-library-source', ...defaultClientConditions] }

/**
 * The web app, built into web/dist and served by the API process at /. Hashed files go under
 * /static/ (not Vite's default /assets/, which is one of the app's own routes). `npm run dev:web`
 * proxies the API to a server on :3000.
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  resolve: workspaceSource,
  build: {
    outDir: 'dist',
    assetsDir: 'static',
    emptyOutDir: true,
    target: 'es2022',
  },
  server: {
    // Prefixes with their slash: a bare '/s' would also send Vite's own '/src/…' to the API. The Host
    // header is kept (Vite's shorthand rewrites it), or sign-in would take the page for another site.
    proxy: Object.fromEntries(
      ['/api/', '/app/api/', '/files/', '/s/'].map((path) => [path, { target: 'http://127.0.0.1:3000', changeOrigin: false }]),
    ),
  },
})
