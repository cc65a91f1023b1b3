#!/usr/bin/env node
/**
 * `asset-library-client`: the client package's command line. It works over the API with a URL and a
 * key, like any other client of the service; the server's own `asset-library` command works on its
 * database instead. Node only: nothing here is reachable from the browser entry.
 */
import { ApiError, NetworkError } from '../errors.js'
import { createClient, type NodeAssetLibraryClient } from '../node.js'
import type { Import, PushFields } from '../types.js'
import { HashCache } from './hash-cache.js'
import { editAssets, editPlan } from './edit.js'
import { getAsset } from './get.js'
import { figmaToken, follow, importSelection, listImports, notFound, refusalOf, succeeded, summaryOf } from './imports.js'
import { listDuplicates, resolveDuplicates } from './duplicates.js'
import { filtersOf, list, listColors, search } from './query.js'
import { transfer, type TransferPlan } from './transfer.js'
import { listTrash, restoreFromTrash } from './trash.js'
import { COMMAND_HELP, connection, FatalError, fieldProblemsOf, HELP, isCommand, parseCommand, UsageError, wholeNumber, type Command, type Connection } from './usage.js'

const VERSION = '0.1.0'
const DEFAULT_CONCURRENCY = 4
const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    process.stdout.write(`${HELP}\n`)
    return command === undefined ? EXIT.usage : EXIT.ok
  }
  if (command === '--version') {
    process.stdout.write(`${VERSION}\n`)
    return EXIT.ok
  }
  if (!isCommand(command)) throw new UsageError(`unknown command ${JSON.stringify(command)}: push, check, search, list, edit, trash, duplicates, colors, get, import or mcp`)

  if (command === 'mcp') {
    const { values, positionals } = parseCommand('mcp', args)
    if (values.help) return help('mcp')
    if (positionals.length > 0) throw new UsageError(`mcp takes no arguments, only --url and --key (got ${positionals[0]})`)
    // stdout is the protocol's from here on: the bridge answers every failure to the client itself.
    const { url, key } = connection(values, process.env)
    // Loaded here only: the MCP SDK is the command line's heaviest import, and the other commands need none of it.
    const { bridgeMcp } = await import('../mcp-bridge.js')
    await bridgeMcp({ url, apiKey: key })
    return EXIT.ok
  }

  if (command === 'search') {
    const { values, positionals } = parseCommand('search', args)
    if (values.help) return help('search')
    if (positionals.length !== 1) throw new UsageError('search takes one query, in quotes: search "red poster"')
    const filters = filtersOf(values)
    await search(await connect(connection(values, process.env)), positionals[0]!, filters, values)
    return EXIT.ok
  }
  if (command === 'list') {
    const { values, positionals } = parseCommand('list', args)
    if (values.help) return help('list')
    if (positionals.length > 0) throw new UsageError(`list takes no arguments, only options (got ${positionals[0]})`)
    const filters = filtersOf(values)
    await list(await connect(connection(values, process.env)), filters, values)
    return EXIT.ok
  }
  if (command === 'edit') {
    const { values, positionals } = parseCommand('edit', args)
    if (values.help) return help('edit')
    if (positionals.length > 0) throw new UsageError(`edit takes no arguments, only options (got ${positionals[0]})`)
    const plan = editPlan(values)
    const client = await connect(connection(values, process.env), values['dry-run'] ? 'assets:read' : 'assets:write')
    return (await editAssets(client, plan, values)) ? EXIT.ok : EXIT.failed
  }
  if (command === 'trash') return trash(args)
  if (command === 'duplicates') return duplicates(args)
  if (command === 'colors') {
    const { values, positionals } = parseCommand('colors', args)
    if (values.help) return help('colors')
    if (positionals.length > 0) throw new UsageError(`colors takes no arguments, only options (got ${positionals[0]})`)
    await listColors(await connect(connection(values, process.env)), values.json ?? false)
    return EXIT.ok
  }
  if (command === 'import') return importCommand(args)
  if (command === 'get') {
    const { values, positionals } = parseCommand('get', args)
    if (values.help) return help('get')
    if (positionals.length !== 1) throw new UsageError('get takes one asset id: get <id> -o FILE')
    await getAsset(await connect(connection(values, process.env)), positionals[0]!, values)
    return EXIT.ok
  }
  return command === 'push' ? push(args) : check(args)
}

/** `trash list` and `trash restore <id>`. */
async function trash(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand('trash', args)
  if (values.help) return help('trash')
  const [action, ...rest] = positionals
  if (action === 'list' && rest.length === 0) {
    await listTrash(await connect(connection(values, process.env)), values)
    return EXIT.ok
  }
  if (action === 'restore' && rest.length === 1) {
    const restored = await restoreFromTrash(await connect(connection(values, process.env), 'assets:write'), rest[0]!, values.json ?? false)
    return restored ? EXIT.ok : EXIT.failed
  }
  throw new UsageError('trash takes trash list or trash restore <id>')
}

/** `duplicates list` and `duplicates resolve <keep-id> <other-id…>`. */
async function duplicates(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand('duplicates', args)
  if (values.help) return help('duplicates')
  const [action, ...rest] = positionals
  if (action === 'list' && rest.length === 0) {
    await listDuplicates(await connect(connection(values, process.env)), values)
    return EXIT.ok
  }
  if (action === 'resolve' && rest.length >= 2) {
    const [keep, ...trash] = rest
    const resolved = await resolveDuplicates(await connect(connection(values, process.env), 'assets:write'), keep!, trash, values.json ?? false)
    return resolved ? EXIT.ok : EXIT.failed
  }
  throw new UsageError('duplicates takes duplicates list or duplicates resolve <keep-id> <other-id…>')
}

/** `import figma <link>`, `import rerun <id>`, `import get <id>` and `import list`. */
async function importCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand('import', args)
  if (values.help) return help('import')
  const [action, ...rest] = positionals
  const json = values.json ?? false
  if (action === 'figma' && rest.length === 1) {
    const selection = importSelection(values)
    const client = await connect(connection(values, process.env), 'assets:write')
    const queued = await client.imports
      .create({
        file_url: rest[0]!,
        ...selection,
        ...figmaToken(values, process.env),
        ...(values.type !== undefined && { asset_type: await assetTypeNamed(client, values.type) }),
        ...(values.client !== undefined && { client: values.client }),
        ...(values.product !== undefined && { product: values.product }),
        ...(values.tag !== undefined && { tag_names: values.tag }),
        ...(values.collection !== undefined && { collection_name: (await collectionNamed(client, values.collection, false))!.name }),
      })
      .catch((error: unknown) => Promise.reject(refusalOf(error)))
    return afterQueued(client, queued.import_id, values.wait ?? false, json)
  }
  if (action === 'rerun' && rest.length === 1) {
    const client = await connect(connection(values, process.env), 'assets:write')
    const id = rest[0]!
    try {
      await client.imports.rerun(id, figmaToken(values, process.env))
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw refusalOf(error)
      notFound(error, id)
      return EXIT.failed
    }
    return afterQueued(client, id, values.wait ?? false, json)
  }
  if (action === 'get' && rest.length === 1) {
    const client = await connect(connection(values, process.env))
    let record: Import
    try {
      record = await client.imports.get(rest[0]!)
    } catch (error) {
      notFound(error, rest[0]!)
      return EXIT.failed
    }
    process.stdout.write(json ? `${JSON.stringify(record)}\n` : summaryOf(record))
    return EXIT.ok
  }
  if (action === 'list' && rest.length === 0) {
    await listImports(await connect(connection(values, process.env)), values)
    return EXIT.ok
  }
  throw new UsageError('import takes import figma <Figma link>, import rerun <id>, import get <id> or import list')
}

/**
 * A queued import: its id (--json: its record) at once, or with --wait its progress on stderr until it
 * ends, then its counts and failures. The first Ctrl-C stops the wait, not the import.
 */
async function afterQueued(client: NodeAssetLibraryClient, id: string, wait: boolean, json: boolean): Promise<number> {
  if (!wait) {
    process.stdout.write(json ? `${JSON.stringify(await client.imports.get(id))}\n` : `${id}\n`)
    return EXIT.ok
  }
  const stop = new AbortController()
  const interrupt = () => {
    if (stop.signal.aborted) process.exit(EXIT.interrupted)
    stop.abort(new Error('stopped'))
  }
  process.on('SIGINT', interrupt)
  process.on('SIGTERM', interrupt)
  let record: Import
  try {
    record = await follow(client, id, stop.signal)
  } catch (error) {
    if (!stop.signal.aborted) throw error
    process.stderr.write(`\nStopped waiting: the import goes on on the server. Follow it with: asset-library-client import get ${id}\n`)
    return EXIT.interrupted
  } finally {
    process.off('SIGINT', interrupt)
    process.off('SIGTERM', interrupt)
  }
  process.stdout.write(json ? `${JSON.stringify(record)}\n` : summaryOf(record))
  return succeeded(record) ? EXIT.ok : EXIT.failed
}

function help(command: Command): number {
  process.stdout.write(`${COMMAND_HELP[command]}\n`)
  return EXIT.ok
}

async function push(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand('push', args)
  if (values.help) return help('push')
  if (positionals.length === 0) throw new UsageError('push needs files, folders or globs: push ./photos')
  const client = await connect(connection(values, process.env), values['dry-run'] ? 'assets:read' : 'assets:write')
  const fields: PushFields = {
    ...(values.type !== undefined && { asset_type: await assetTypeNamed(client, values.type) }),
    ...(values.client !== undefined && { client: values.client }),
    ...(values.product !== undefined && { product: values.product }),
    ...(values.tag !== undefined && { tag_names: values.tag }),
    ...(values.human && { created_by_ai: false }),
  }
  const dryRun = values['dry-run'] ?? false
  const plan: TransferPlan = {
    paths: positionals,
    ignore: values.ignore ?? [],
    concurrency: wholeNumber('concurrency', values.concurrency, 1, 64) ?? DEFAULT_CONCURRENCY,
    mode: dryRun ? 'dry-run' : 'push',
    fields,
    sync: values.sync ?? false,
    collection: values.collection === undefined ? undefined : await collectionNamed(client, values.collection, dryRun),
  }
  return run(client, plan, values)
}

async function check(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand('check', args)
  if (values.help) return help('check')
  if (positionals.length === 0) throw new UsageError('check needs files, folders or globs: check ./photos')
  const client = await connect(connection(values, process.env))
  const plan: TransferPlan = {
    paths: positionals,
    ignore: values.ignore ?? [],
    concurrency: wholeNumber('concurrency', values.concurrency, 1, 64) ?? DEFAULT_CONCURRENCY,
    mode: 'check',
    fields: {},
    sync: false,
    collection: undefined,
  }
  return run(client, plan, values)
}

/**
 * Runs a push or check. The first Ctrl-C (or SIGTERM) lets the requests in flight finish, ends the waits
 * (for a rate limit's window, a retry's) at once, starts nothing new and prints the summary; a second one
 * quits at once (the progress bar is cleared on the way out).
 */
async function run(client: NodeAssetLibraryClient, plan: TransferPlan, values: { json?: boolean | undefined; 'no-cache'?: boolean | undefined }): Promise<number> {
  const stop = new AbortController()
  const interrupt = () => {
    if (stop.signal.aborted) process.exit(EXIT.interrupted)
    process.stderr.write('\nStopping: letting the requests in flight finish (Ctrl-C again to quit at once)…\n')
    stop.abort(new Error('stopped'))
  }
  process.on('SIGINT', interrupt)
  process.on('SIGTERM', interrupt)
  const cache = HashCache.open(process.env, !values['no-cache'])
  const summary = await transfer(client, plan, cache, { json: values.json ?? false }, stop)
  if (summary.stopped) {
    process.stderr.write(`Stopped with ${summary.pending} files not done. Run the same command again to resume: files already in the library are not pushed again.\n`)
    return EXIT.interrupted
  }
  if (summary.failed > 0) return EXIT.failed
  return plan.mode === 'check' && summary.missing > 0 ? EXIT.failed : EXIT.ok
}

/**
 * A client whose key has been tried once (`GET /api/v1/auth/key`), so a wrong URL, a refused key or a
 * read-only key for a push ends the run before any file is read.
 */
async function connect({ url, key }: Connection, needs?: 'assets:read' | 'assets:write'): Promise<NodeAssetLibraryClient> {
  const client = createClient({
    baseUrl: url,
    apiKey: key,
    // A bulk run rides out blips: up to ~15 s of backoff per call, and a rate-limit window of a minute.
    maxAttempts: 5,
    fetch: letRequestsFinish,
    maxRetryAfterSeconds: 90,
    headers: { 'user-agent': `asset-library-client/${VERSION}` },
  })
  let scope: string
  try {
    scope = (await client.auth.key()).scope
  } catch (error) {
    throw fatalFrom(error, url)
  }
  if (needs === 'assets:write' && scope !== 'assets:write') throw new FatalError('the API key is read-only (assets:read): this needs an assets:write key')
  return client
}

/**
 * Sends a request without its signal: a run stopped by Ctrl-C lets the requests it has sent finish (their
 * answers are counted), while the signal still ends the client's waits between attempts.
 */
const letRequestsFinish: typeof fetch = (input, init) => fetch(input, { ...init, signal: null })

function fatalFrom(error: unknown, url: string): unknown {
  if (error instanceof NetworkError) return new FatalError(`cannot reach ${url}: ${error.message.replace(/^GET \S+: /, '')}`)
  if (error instanceof ApiError && error.status === 401) return new FatalError(`the API key was refused (401 ${error.code}): ${error.detail ?? 'check --key or ASSET_LIBRARY_KEY'}`)
  if (error instanceof ApiError && error.status === 404) return new FatalError(`${url} answered 404 for the API: is it the Asset Library's address?`)
  return error
}

/**
 * The asset type as the library's catalogue spells it (names are matched without case). One it lacks ends
 * the run before any file is read: every push would be refused for it, each spending the push limit.
 */
async function assetTypeNamed(client: NodeAssetLibraryClient, name: string): Promise<string> {
  const known: string[] = []
  for await (const assetType of client.assetTypes.iterate()) {
    if (assetType.name.toLowerCase() === name.toLowerCase()) return assetType.name
    known.push(assetType.name)
  }
  throw new FatalError(`--type ${JSON.stringify(name)} is not one of the library's asset types (${known.join(', ')})`)
}

/** The manual collection named so (names are matched without case), made when missing. */
async function collectionNamed(client: NodeAssetLibraryClient, name: string, dryRun: boolean): Promise<{ id: string; name: string } | undefined> {
  for await (const collection of client.collections.iterate()) {
    if (collection.name.toLowerCase() !== name.toLowerCase()) continue
    if (collection.kind === 'smart') throw new UsageError(`--collection ${JSON.stringify(name)} is a smart collection: its assets come from its query, not from pushes`)
    return { id: collection.id, name: collection.name }
  }
  if (dryRun) {
    process.stderr.write(`The collection ${JSON.stringify(name)} does not exist yet: a real push makes it.\n`)
    return undefined
  }
  const made = await client.collections.create({ name })
  process.stderr.write(`Made the collection ${JSON.stringify(made.name)}.\n`)
  return { id: made.id, name: made.name }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    if (error instanceof UsageError) process.stderr.write(`asset-library-client: ${error.message} (see --help)\n`)
    else if (error instanceof FatalError) process.stderr.write(`asset-library-client: ${error.message}\n`)
    else {
      const fatal = fatalFrom(error, process.env.ASSET_LIBRARY_URL ?? 'the server')
      // A refused value (a 400's fields: `query/provenance: must be one of: ai, …`) says what it takes.
      const fields = fatal instanceof ApiError ? fieldProblemsOf(fatal) : ''
      process.stderr.write(`asset-library-client: ${fatal instanceof Error ? fatal.message : String(fatal)}${fields}\n`)
      process.exitCode = fatal instanceof FatalError ? EXIT.usage : EXIT.failed
      return
    }
    process.exitCode = EXIT.usage
  },
)
