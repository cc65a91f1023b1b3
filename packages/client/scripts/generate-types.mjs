// Writes src/generated/v1.ts from the repository's openapi/v1.json; with --check, fails when the
// committed file differs from what the document generates now (CI runs the check).
import { readFileSync, writeFileSync } from 'node:fs'
import openapiTS, { astToString } from 'openapi-typescript'

const document = new URL('../../../openapi/v1.json', import.meta.url)
const target = new URL('../src/generated/v1.ts', import.meta.url)
const header = '// Generated from openapi/v1.json by `npm run types:generate -w @asset-library/client`. Do not edit.\n\n'

const generated = header + astToString(await openapiTS(document))

if (!process.argv.includes('--check')) {
  writeFileSync(target, generated)
} else if (readFileSync(target, 'utf8') !== generated) {
  console.error('packages/client/src/generated/v1.ts is stale: run `npm run types:generate -w @asset-library/client` and commit it.')
  process.exit(1)
}
