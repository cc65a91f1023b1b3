/**
 * Writes the OpenAPI documents the routes generate:
 *   openapi/v1.json   the public API, as the running app serves it at /api/v1/openapi.json
 *   openapi/app.json  the browser application's own endpoints (/app/api): internal and unstable, not served,
 *                     for the application's generated types
 *
 *   npx tsx scripts/openapi.ts           regenerate both
 *   npx tsx scripts/openapi.ts --check   exit 1 when a committed document differs from what the code generates
 *
 * No database is needed: the app is built over a connection pool that is never connected (registering
 * routes does not query), and nothing in the documents depends on the machine or the clock.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import pino from 'pino'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { openDatabase } from '../src/platform/db/index.js'
import type { OpenApiDocument } from '../src/platform/http/openapi.js'

const OPENAPI_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'openapi')

/** Where each document is committed. */
export const OPENAPI_FILES: Record<OpenApiDocument, string> = {
  v1: resolve(OPENAPI_DIR, 'v1.json'),
  app: resolve(OPENAPI_DIR, 'app.json'),
}

/** A document as the code generates it: v1 exactly as GET /api/v1/openapi.json serves it. */
export async function generateOpenApi(document: OpenApiDocument = 'v1'): Promise<unknown> {
  const logger = pino({ level: 'silent' })
  const config = loadConfig({
    // A fixed, throwaway environment: the document must not depend on whoever runs this.
    APP_SECRET: randomBytes(32).toString('hex'),
    DATA_DIR: tmpdir(),
    LOG_LEVEL: 'silent',
  })
  // pg.Pool connects lazily; port 1 makes any accidental query fail fast instead of reaching a real server.
  const database = await openDatabase({ databaseUrl: 'postgres://openapi@127.0.0.1:1/never-connected', dataDir: '', logger })
  const app = await buildApp({ config, database, logger, openApiDocument: document })
  try {
    await app.ready()
    // The app's document is not served: it is read from the generator, through JSON as a response would be.
    if (document === 'app') return JSON.parse(JSON.stringify(app.swagger())) as unknown
    const response = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })
    if (response.statusCode !== 200) throw new Error(`GET /api/v1/openapi.json answered ${response.statusCode}: ${response.body}`)
    return response.json()
  } finally {
    await app.close()
    await database.close()
  }
}

export function serialize(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`
}

/** JSON Pointers where two documents differ, for a readable --check message. */
function differences(a: unknown, b: unknown, pointer = '', out: string[] = []): string[] {
  if (out.length >= 20) return out
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) {
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push(pointer || '/')
    return out
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)])
  for (const key of keys) {
    const left = (a as Record<string, unknown>)[key]
    const right = (b as Record<string, unknown>)[key]
    const next = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`
    if (left === undefined || right === undefined) {
      if (left !== right) out.push(`${next} (${left === undefined ? 'added in code' : 'removed from code'})`)
    } else {
      differences(left, right, next, out)
    }
  }
  return out
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } })
  let failed = false
  for (const document of Object.keys(OPENAPI_FILES) as OpenApiDocument[]) {
    const file = OPENAPI_FILES[document]
    const generated = serialize(await generateOpenApi(document))
    if (values.check) failed = !check(file, generated) || failed
    else {
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, generated)
      console.log(`Wrote ${shown(file)}`)
    }
  }
  return failed ? 1 : 0
}

function shown(file: string): string {
  return relative(process.cwd(), file) || file
}

/** Whether the committed file is what the code generates; says where they differ when not. */
function check(file: string, generated: string): boolean {
  let committed: string
  try {
    committed = readFileSync(file, 'utf8')
  } catch {
    console.error(`${shown(file)} is missing. Run \`npm run openapi\` and commit the result.`)
    return false
  }
  if (committed === generated) {
    console.log(`${shown(file)} is up to date.`)
    return true
  }
  let where: string[]
  try {
    where = differences(JSON.parse(committed), JSON.parse(generated))
  } catch {
    where = ['(the committed file is not valid JSON)']
  }
  console.error(
    [
      `${shown(file)} is out of date: the routes generate a different OpenAPI document.`,
      ...(where.length > 0 ? ['Differences at:', ...where.map((p) => `  ${p}`)] : ['(formatting differs)']),
      `Run \`npm run openapi\` and commit ${shown(file)}.`,
    ].join('\n'),
  )
  return false
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    },
  )
}
