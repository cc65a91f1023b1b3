/**
 * What the web app's first screen costs to download: the JavaScript and CSS that index.html loads
 * (its entry script, the chunks it preloads, its stylesheets), gzipped as a server would send them,
 * beside every other chunk (the screens loaded when first opened). Run after `npm run build:web`.
 *
 *   npx tsx bench/web-bundle.ts        target: first-screen JavaScript under 250 KB gzipped
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

const WEB_DIR = join(import.meta.dirname, '..', 'web', 'dist')
const TARGET_KB = 250

const gzipped = (file: string) => gzipSync(readFileSync(join(WEB_DIR, file)), { level: 9 }).length
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

const index = readFileSync(join(WEB_DIR, 'index.html'), 'utf8')
const firstScreen = new Set([...index.matchAll(/(?:src|href)="\/(static\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]!))
const all = readdirSync(join(WEB_DIR, 'static')).filter((name) => /\.(js|css)$/.test(name)).map((name) => `static/${name}`)

const sizes = all.map((file) => ({ file, raw: readFileSync(join(WEB_DIR, file)).length, gzip: gzipped(file), first: firstScreen.has(file) }))
sizes.sort((a, b) => Number(b.first) - Number(a.first) || b.gzip - a.gzip)
console.log('file                                         raw        gzip   first screen')
for (const { file, raw, gzip, first } of sizes) console.log(`${file.padEnd(44)} ${kb(raw).padStart(9)} ${kb(gzip).padStart(9)}   ${first ? 'yes' : ''}`)

const sum = (files: typeof sizes) => files.reduce((total, entry) => total + entry.gzip, 0)
const firstJs = sum(sizes.filter((entry) => entry.first && entry.file.endsWith('.js')))
console.log(`\nfirst screen: JavaScript ${kb(firstJs)}, CSS ${kb(sum(sizes.filter((entry) => entry.first && entry.file.endsWith('.css'))))} (gzipped)`)
console.log(`every chunk:  ${kb(sum(sizes))} (gzipped)`)
console.log(`${firstJs <= TARGET_KB * 1024 ? 'PASS' : 'MISS'}: first-screen JavaScript ${kb(firstJs)} against ${TARGET_KB} KB`)
