import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

/**
 * The web app, built into web/dist and served by the API process at /. Hashed files go under
 * /static/ (not Vite's default /assets/, which is one of the app's own routes). `npm run dev:web`
 * proxies the API to a server on :3000.
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: 'dist',
    assetsDir: 'static',
    emptyOutDir: true,
    target: 'es2022',
  },
  server: {
    proxy: Object.fromEntries(['/api', '/app/api', '/files', '/s'].map((path) => [path, 'http://127.0.0.1:3000'])),
  },
})
