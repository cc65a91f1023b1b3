// Writes src/generated/v1.ts (the types) and src/generated/operations.ts (each operation's method, path and
// rate-limit bucket, which the client calls through) from the repository's openapi/v1.json; with --check,
// fails when a committed file differs from what the document generates now (CI runs the check).
import { readFileSync, writeFileSync } from 'node:fs'
import openapiTS, { astToString } from 'openapi-typescript'

const document = new URL('../../../openapi/v1.json', import.meta.url)
const header = '// Generated from openapi/v1.json by `npm run types:generate -w @asset-library/client`. Do not edit.\n\n'
const METHODS = ['get', 'post', 'put', 'patch', 'delete']
const BUCKETS = ['expensive', 'cheap', 'standard']

/** `operationId: { method, path, bucket }` for every operation, in the document's order; the bucket is its `x-rate-limit-bucket`. */
function operationTable(spec) {
  const rows = []
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS.filter((name) => item[name])) {
      const { operationId, 'x-rate-limit-bucket': bucket } = item[method]
      if (!operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId`)
      if (!BUCKETS.includes(bucket)) throw new Error(`${operationId} has no x-rate-limit-bucket of ${BUCKETS.join(', ')}: ${bucket}`)
      rows.push(`  ${operationId}: { method: '${method.toUpperCase()}', path: '${path}', bucket: '${bucket}' },`)
    }
  }
  return `${header}/** Every operation of the API: its method, its path (\`{id}\` is the parameter) and its rate-limit bucket (\`x-rate-limit-bucket\`). */
export const OPERATIONS = {
${rows.join('\n')}
} as const

export type OperationId = keyof typeof OPERATIONS
`
}

const files = {
  'v1.ts': header + astToString(await openapiTS(document)),
  'operations.ts': operationTable(JSON.parse(readFileSync(document, 'utf8'))),
}

for (const [name, generated] of Object.entries(files)) {
  const target = new URL(`../src/generated/${name}`, import.meta.url)
  if (!process.argv.includes('--check')) {
    writeFileSync(target, generated)
  } else if (readFileSync(target, 'utf8') !== generated) {
    console.error(`packages/client/src/generated/${name} is stale: run \`npm run types:generate -w @asset-library/client\` and commit it.`)
    process.exit(1)
  }
}
