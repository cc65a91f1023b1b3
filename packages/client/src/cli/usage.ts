import { parseArgs, type ParseArgsConfig } from 'node:util'
import type { ApiError } from '../errors.js'

/** Bad usage: exit 2 with this one line (and a hint to `--help`). */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

/** The run cannot go on: a refused key, an unreachable server. Exit 2 with this one line. */
export class FatalError extends Error {
  override readonly name = 'FatalError'
}

/** The fields a refusal names, each as ` (pointer: what is wrong)`, or nothing. */
export function fieldProblemsOf(error: ApiError): string {
  return error.fieldProblems.map((problem) => ` (${problem.pointer.replace(/^\//, '')}: ${problem.detail})`).join('')
}

const CONNECTION = `  --url URL            the service (or ASSET_LIBRARY_URL)
  --key KEY            an API key, al_… (or ASSET_LIBRARY_KEY)`
const HELP_OPTION = '  -h, --help           this help'
const WALKING = `  --ignore GLOB        leave out matching paths (repeatable; a glob without / matches names)
  --no-cache           hash every file again instead of trusting the cache (path, size, mtime)
  --concurrency N      files read and pushes in flight (default 4)`
const FILTERS = `  --tag T              only assets with this tag
  --type T             only assets of this asset type
  --client C           only assets of this client
  --product P          only assets of this product
  --color NAME         only assets with this colour in their palette (colors lists the names)
  --provenance P       only assets whose file declares this origin: ai, ai_composite, capture, edited
                       or unknown (an asset not yet analysed matches no colour and no origin)`
const EXIT = `Exit: 0 every file is in the library; 1 some failed (or, for check, are missing);
2 bad usage, a refused key or an unreachable server; 130 stopped by Ctrl-C or SIGTERM (run it again to resume).`

export const HELP = `asset-library-client: move files into an Asset Library and look them up, over its API

Usage:
  asset-library-client push <files, folders or globs…> [options]
  asset-library-client check <files, folders or globs…> [options]
  asset-library-client search "<query>" [--tag T] [--type T] [--client C] [--product P] [--color NAME] [--provenance P] [--limit N]
  asset-library-client list [--tag T] [--type T] [--client C] [--product P] [--color NAME] [--provenance P] [-q Q] [--sort KEY] [--limit N] [--offset N | --all]
  asset-library-client trash list [--limit N] [--offset N | --all]
  asset-library-client trash restore <id>
  asset-library-client duplicates list [--limit N]
  asset-library-client duplicates resolve <keep-id> <other-id…>
  asset-library-client edit --where FIELD=VALUE [--tag-add T] [--tag-remove T] [--set FIELD=VALUE] [--dry-run]
  asset-library-client colors   the colour names --color takes
  asset-library-client get <id> [--preset NAME | --width N --height N --fit F --format F --quality Q] -o FILE
  asset-library-client import figma <Figma link> [--components | --nodes 1:2,3:4] [--format F] [--scale N] [--wait]
  asset-library-client import rerun <id> [--wait]
  asset-library-client import get <id>
  asset-library-client import list [--file KEY] [--limit N] [--offset N | --all]
  asset-library-client mcp      the service's MCP tools over stdio, for a desktop AI client

Every command:
${CONNECTION}
  --json               NDJSON on stdout: one line per file, asset, group or colour, then a summary line
                       (import, duplicates resolve: the server's answer as JSON; not mcp)
${HELP_OPTION} (after a command: that command's options)

push and check:
${WALKING}

push:
  --type T, --client C, --product P, --tag T (repeatable), --collection NAME (made if missing),
  --human (created_by_ai=false), --dry-run (push nothing: say what would be pushed),
  --sync (a changed file becomes a new version of its asset, found by its path)

${EXIT}`

/** Each command's own `--help`: what it does and every option it takes (a test holds them to COMMANDS). */
export const COMMAND_HELP: Record<Command, string> = {
  push: `Usage: asset-library-client push <files, folders or globs…> [options]

Pushes every image the library lacks (copies of one image in the run are pushed once); the others are
reported as already in the library. Checks --type and --collection before any push.

Options:
  --type T             the asset type of every file (one of the library's asset types)
  --client C           the client of every file
  --product P          the product of every file
  --tag T              a tag for every file (repeatable)
  --collection NAME    put every file in this manual collection (made if missing)
  --human              mark the files as made by a person (created_by_ai=false)
  --dry-run            push nothing: say what would be pushed
  --sync               give each file the external_id path:<its path from the folder pushed>, so that a
                       file changed since the last run becomes a new version of its asset (updated)
                       instead of a new asset; unchanged files are still not sent
${WALKING}
${CONNECTION}
  --json               NDJSON on stdout: one line per file, then a summary line
${HELP_OPTION}

${EXIT}`,
  check: `Usage: asset-library-client check <files, folders or globs…> [options]

Says which files the library has (in library, with the asset id) and which it lacks (missing);
pushes nothing.

Options:
${WALKING}
${CONNECTION}
  --json               NDJSON on stdout: one line per file, then a summary line
${HELP_OPTION}

Exit: 0 every image is in the library; 1 some are missing or failed; 2 bad usage, a refused key or an
unreachable server; 130 stopped by Ctrl-C or SIGTERM.`,
  search: `Usage: asset-library-client search "<query>" [options]

Full-text and semantic search: the hits as a table.

Options:
${FILTERS}
  --limit N            at most N hits (1 to 100)
${CONNECTION}
  --json               NDJSON on stdout: one line per hit
${HELP_OPTION}`,
  list: `Usage: asset-library-client list [options]

A page of assets as a table, newest first (or in the order of --sort), or every one with --all.

Options:
${FILTERS}
  -q, --q Q            only assets whose text matches Q
  --sort KEY           the order: created_at, title, byte_size or updated_at, ascending; -KEY descending
                       (--sort=-byte_size: largest first). Default -created_at
  --limit N            assets per page (1 to 100, default 50)
  --offset N           skip the first N assets (the next page starts at offset + limit)
  --all                every matching asset, page after page
${CONNECTION}
  --json               NDJSON on stdout: one line per asset
${HELP_OPTION}`,
  trash: `Usage: asset-library-client trash list [options]
       asset-library-client trash restore <id> [options]

list: the deleted assets as a table, last deleted first: when and by whom each was deleted, and when the
purge removes it for good. restore: puts the asset back as it was (tags, collections, versions) and
prints it; needs an assets:write key.

Options:
  --limit N            assets per page (1 to 100, default 50)
  --offset N           skip the first N (the next page starts at offset + limit)
  --all                every asset in the trash, page after page
${CONNECTION}
  --json               NDJSON on stdout: one line per asset
${HELP_OPTION}`,
  duplicates: `Usage: asset-library-client duplicates list [--limit N] [options]
       asset-library-client duplicates resolve <keep-id> <other-id…> [options]

list: every group of near-duplicates (pictures nearly the same: re-encodes, resizes), page after page,
the group pushed last first: the group's asset (the oldest, the one to keep unless you choose another),
then each of its near-duplicates pushed after it with their distance (bits of 64 that differ; 0 is the
same picture). resolve: keeps <keep-id> and moves the others to the trash in one step; the kept asset gains
their tags and manual collections. Prints what was kept and trashed; needs an assets:write key. Any id not
a live asset of the organization changes nothing (exit 1).

Options:
  --limit N            list: at most N groups (default: every group)
${CONNECTION}
  --json               list: NDJSON on stdout, one line per group as the server sends it; resolve: the
                       server's answer (the kept asset's record and the trashed ids)
${HELP_OPTION}`,
  edit: `Usage: asset-library-client edit --where FIELD=VALUE [--tag-add T] [--tag-remove T] [--set FIELD=VALUE] [options]

Edits every asset the --where filters select, in requests of 500: adds and removes tags (the others stay)
and sets fields. All matching assets are listed first, so an edit that takes them out of the selection
(--where tag=draft --tag-remove draft) still reaches each one. Prints how many were updated, unchanged (they
had every value), not found (deleted meanwhile) or forbidden, and why any was skipped. Needs an assets:write
key.

Options:
  --where FIELD=VALUE  select by tag, type, client, product, color, provenance or q (full text); repeatable,
                       the filters combine
  --tag-add T          a tag each asset gains (repeatable)
  --tag-remove T       a tag each asset loses (repeatable)
  --set FIELD=VALUE    type=T (one of the library's asset types), client=C, product=P (an empty value
                       clears it), origin=ai or origin=person; repeatable
  --dry-run            edit nothing: say how many assets would be edited
${CONNECTION}
  --json               NDJSON on stdout: one line per asset ({id, result, reason?}), then a summary line
${HELP_OPTION}

Exit: 0 every selected asset was updated or unchanged; 1 some were not found or forbidden; 2 bad usage, a
refused key or an unreachable server.`,
  colors: `Usage: asset-library-client colors [options]

The colour names an asset's palette colours are given, and --color of list and search takes, each with
the hex of its swatch.

Options:
${CONNECTION}
  --json               NDJSON on stdout: one line per colour
${HELP_OPTION}`,
  get: `Usage: asset-library-client get <id> [--preset NAME | --width N --height N --fit F --format F --quality Q] -o FILE

Downloads the asset's image: at a size and in a format, as one of the organization's presets, or (with
neither) the original. The server makes a rendition on its first request and keeps it; values out of range
are clamped (see Rendition-Clamped in the API docs).

Options:
  --preset NAME        a preset: thumbnail, original, or one of the organization's (web-1200, og-image…)
  --width N            pixels (alone: the height follows the aspect ratio)
  --height N           pixels (alone: the width follows the aspect ratio)
  --fit F              contain (default: padded to the box), cover (cropped to it) or inside (no padding)
  --format F           png, jpeg, webp, avif or auto (default: picked by the server)
  --quality Q          20 to 100 (default 80; not for png)
  -o, --output FILE    where to write it; - for stdout
${CONNECTION}
  --json               one JSON line on stdout: the file, its size and format
${HELP_OPTION}`,
  import: `Usage: asset-library-client import figma <Figma link> [options]
       asset-library-client import rerun <id> [--token T] [--wait] [--json]
       asset-library-client import get <id> [--json]
       asset-library-client import list [--file KEY] [--limit N] [--offset N | --all] [--json]

figma: imports a Figma file's top-level frames (or the subtree of the link's node-id) as assets, each with
the external_id figma:FILEKEY:NODEID, and prints the import's id. The server runs the import: --wait follows
it (a progress bar on a terminal's stderr, plain lines otherwise) and prints what it did. Importing the same
file again (rerun) is a sync: changed nodes become new versions, removed ones are reported as missing.
rerun: runs an import again with its stored selection. get: an import's state and counts. list: the
organization's imports, newest first.

Options:
  --components         import the file's components and component sets' variants instead of its frames
  --nodes IDS          import these nodes only, comma-separated as Figma writes them: 1:2,3:4
  --format F           png (default), svg or jpg
  --scale N            1 to 4 (default 1; Figma ignores it for svg)
  --token T            a Figma personal access token (or FIGMA_TOKEN; prefer it: a flag shows in the process
                       list); without either, the organization's stored token (Settings → Integrations)
  --type T             the asset type of every asset (one of the library's asset types)
  --client C           the client of every asset
  --product P          the product of every asset
  --tag T              a tag for every asset besides its page's (repeatable)
  --collection NAME    put every asset in this manual collection (made if missing)
  --wait               follow the import until it ends, then print its counts and each failed node
  --file KEY           list: only the imports of this Figma file key
  --limit N            list: imports per page (1 to 100, default 50)
  --offset N           list: skip the first N
  --all                list: every import, page after page
${CONNECTION}
  --json               the import's record as JSON on stdout (figma and rerun: once it ends, with --wait;
                       list: one line per import)
${HELP_OPTION}

Exit: 0 the import is queued, or (--wait) done with no failed node; 1 it failed, or some nodes failed;
2 bad usage (a link that is not Figma's, no token), a refused key or an unreachable server; 130 stopped
waiting by Ctrl-C (the import goes on: import get <id>).`,
  mcp: `Usage: asset-library-client mcp [--url URL] [--key KEY]

Serves the Asset Library's MCP tools over stdio, for a desktop AI client (Claude Desktop and others that
start a local command): each JSON-RPC message read on stdin is sent to <URL>/mcp with the key, and each
answer is written to stdout. Failures are answered to the client and reported as one line on stderr.

Options:
${CONNECTION}
${HELP_OPTION}`,
}

const common = {
  url: { type: 'string' },
  key: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

const filters = {
  tag: { type: 'string' },
  type: { type: 'string' },
  client: { type: 'string' },
  product: { type: 'string' },
  color: { type: 'string' },
  provenance: { type: 'string' },
  limit: { type: 'string' },
} as const

const walking = {
  ignore: { type: 'string', multiple: true },
  'no-cache': { type: 'boolean' },
  concurrency: { type: 'string' },
} as const

export const COMMANDS = {
  push: {
    ...common,
    ...walking,
    type: { type: 'string' },
    client: { type: 'string' },
    product: { type: 'string' },
    tag: { type: 'string', multiple: true },
    collection: { type: 'string' },
    human: { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    sync: { type: 'boolean' },
  },
  check: { ...common, ...walking },
  search: { ...common, ...filters },
  list: { ...common, ...filters, q: { type: 'string', short: 'q' }, sort: { type: 'string' }, offset: { type: 'string' }, all: { type: 'boolean' } },
  trash: { ...common, limit: { type: 'string' }, offset: { type: 'string' }, all: { type: 'boolean' } },
  duplicates: { ...common, limit: { type: 'string' } },
  edit: {
    ...common,
    where: { type: 'string', multiple: true },
    set: { type: 'string', multiple: true },
    'tag-add': { type: 'string', multiple: true },
    'tag-remove': { type: 'string', multiple: true },
    'dry-run': { type: 'boolean' },
  },
  colors: common,
  get: {
    ...common,
    preset: { type: 'string' },
    width: { type: 'string' },
    height: { type: 'string' },
    fit: { type: 'string' },
    format: { type: 'string' },
    quality: { type: 'string' },
    output: { type: 'string', short: 'o' },
  },
  import: {
    ...common,
    components: { type: 'boolean' },
    nodes: { type: 'string' },
    format: { type: 'string' },
    scale: { type: 'string' },
    token: { type: 'string' },
    type: { type: 'string' },
    client: { type: 'string' },
    product: { type: 'string' },
    tag: { type: 'string', multiple: true },
    collection: { type: 'string' },
    wait: { type: 'boolean' },
    file: { type: 'string' },
    limit: { type: 'string' },
    offset: { type: 'string' },
    all: { type: 'boolean' },
  },
  mcp: { url: common.url, key: common.key, help: common.help },
} as const satisfies Record<string, NonNullable<ParseArgsConfig['options']>>

export type Command = keyof typeof COMMANDS

export function isCommand(name: string | undefined): name is Command {
  return name !== undefined && Object.hasOwn(COMMANDS, name)
}

/** The command's options and positionals; an unknown option or a missing value is a UsageError. */
type Parsed<C extends Command> = ReturnType<typeof parseArgs<{ args: string[]; options: (typeof COMMANDS)[C]; allowPositionals: true; strict: true }>>

export function parseCommand<C extends Command>(command: C, args: string[]): Parsed<C> {
  try {
    return parseArgs({ args, options: COMMANDS[command], allowPositionals: true, strict: true })
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0])
  }
}

/** A whole number from min up, or undefined when the option was not given. */
export function wholeNumber(name: string, value: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined
  const number = Number(value)
  if (!Number.isInteger(number) || number < min || number > max) throw new UsageError(`--${name} takes a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`)
  return number
}

export interface Connection {
  url: string
  key: string
}

/** URL and key from the flags, else the environment; either missing is bad usage. */
export function connection(values: { url?: string | undefined; key?: string | undefined }, env: NodeJS.ProcessEnv): Connection {
  const url = values.url ?? env.ASSET_LIBRARY_URL
  const key = values.key ?? env.ASSET_LIBRARY_KEY
  if (!url) throw new UsageError('no server: give --url or set ASSET_LIBRARY_URL')
  if (!key) throw new UsageError('no API key: give --key or set ASSET_LIBRARY_KEY')
  try {
    const parsed = new URL(url)
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error()
  } catch {
    throw new UsageError(`--url must be an http(s) address, not ${JSON.stringify(url)}`)
  }
  return { url, key }
}
