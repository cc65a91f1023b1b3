import { spawn } from 'node:child_process'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { startFakeFigma, type FakeFigma } from '../../../test/support/fake-figma.js'
import { assetByExternalId, FIGMA_TOKEN, figmaLink, getImport, IMPORT_TEST_ENV } from '../../../test/support/imports.js'
import { seedOrganization } from '../../../test/support/app.js'
import { loginOwner } from '../../../test/support/sessions.js'
import type { Import } from '../src/types.js'
import { startServer, type RunningServer } from './server.js'

/**
 * `asset-library-client import …` (issue 35): the real command line, as a process, against the real app on
 * a socket running its import job, and the fake Figma API.
 */

// Each run is a real process that tsx compiles at start: seconds apiece on a shared 2-core machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 })

const CLI = ['--import', 'tsx', 'packages/client/src/cli/main.ts']

let fake: FakeFigma
let server: RunningServer

beforeAll(async () => {
  fake = await startFakeFigma()
  fake.addToken(FIGMA_TOKEN)
  server = await startServer({ ...IMPORT_TEST_ENV, ...fake.env })
  await server.t.app.services.importJob.start()
})

// Faults (null renders, latency) are by node id, which files share: each test starts with none.
afterEach(() => fake.reset())
afterAll(async () => {
  await server?.close()
  await fake?.close()
})

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** The command line as a process; stderr is a pipe, so progress comes as plain lines. No FIGMA_TOKEN unless given. */
function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const child = spawn(process.execPath, [...CLI, ...args], {
    env: { ...process.env, ASSET_LIBRARY_URL: server.url, ASSET_LIBRARY_KEY: server.acme.writeKey, FIGMA_TOKEN: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })))
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const withToken = { FIGMA_TOKEN }

describe('import figma, then rerun, get and list', () => {
  it('imports with --wait (progress on stderr, the counts on stdout), syncs with rerun --wait --json, and exits 1 for a failed node', async () => {
    const fileKey = `CliFile${process.pid}AbCdEf`
    const file = fake.file(fileKey, 'Brand kit')
    const page = file.addPage('Brand')
    const hero = file.addFrame(page, 'Hero')
    const banner = file.addFrame(page, 'Banner')
    const poster = file.addFrame(page, 'Poster')

    const first = await cli(['import', 'figma', figmaLink(fileKey), '--wait', '--tag', 'from-cli', '--format', 'png', '--scale', '2'], withToken)
    expect(first.code, first.stderr).toBe(0)
    const head = first.stdout.split('\n')[0]!
    expect(head).toMatch(/^import \S+ done: "Brand kit" \(version \S+\), run 1, 3 nodes: 3 created, 0 updated, 0 unchanged, 0 failed, 0 missing in \d+\.\d s$/)
    const id = head.split(' ')[1]!
    expect(id).toMatch(UUID)
    // Off a terminal: a plain line at each change of status, the last one the end.
    expect(first.stderr.trim().split('\n').at(-1)).toBe(`import ${id} done: 3/3 nodes (3 created, 0 updated, 0 unchanged, 0 failed)`)
    const heroAsset = await assetByExternalId(server.t.app, server.acme.writeKey, `figma:${fileKey}:${hero}`)
    expect(heroAsset).toMatchObject({ title: 'Hero', tags: expect.arrayContaining(['Brand', 'from-cli']) })
    expect(await getImport(server.t.app, server.acme.writeKey, id)).toMatchObject({ format: 'png', scale: 2, metadata: { tag_names: ['from-cli'] } })

    file.edit(hero)
    file.remove(banner)
    fake.nullRenders([poster])
    file.edit(poster)
    const sync = await cli(['import', 'rerun', id, '--wait', '--json'], withToken)
    expect(sync.code, sync.stderr).toBe(1)
    const record = JSON.parse(sync.stdout) as Import
    expect(record).toMatchObject({ id, status: 'done', run: 2, total: 2, created: 0, updated: 1, unchanged: 0, failed: 1, missing: 1 })
    expect(record.failures).toEqual([expect.objectContaining({ node_id: poster, name: 'Poster', reason: 'render_failed' })])
    expect(record.missing_nodes).toEqual([expect.objectContaining({ node_id: banner, name: 'Banner' })])

    const got = await cli(['import', 'get', id])
    expect(got.code, got.stderr).toBe(0)
    expect(got.stdout).toContain(`import ${id} done: "Brand kit"`)
    expect(got.stdout).toMatch(new RegExp(`^failed {5}${poster} Poster: render_failed \\(.+\\)$`, 'm'))
    expect(got.stdout).toMatch(new RegExp(`^missing {4}${banner} Banner \\(asset ${UUID.source.slice(1, -1)} kept\\)$`, 'm'))

    const listed = await cli(['import', 'list', '--file', fileKey, '--json'])
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stdout.trim().split('\n').map((line) => (JSON.parse(line) as Import).id)).toEqual([id])
    const table = await cli(['import', 'list'])
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+STATUS\s+FILE\s+SELECT\s+RUN\s+CREATED\s+UPDATED\s+UNCHANGED\s+FAILED\s+MISSING\s+CREATED AT$/)
    expect(table.stdout).toMatch(new RegExp(`^${id}\\s+done\\s+Brand kit\\s+frames\\s+2\\s+0\\s+1\\s+0\\s+1\\s+1\\s`, 'm'))
  })

  it('without --wait prints the id at once; --components, --nodes, --type and --collection reach the import', async () => {
    const fileKey = `CliComp${process.pid}AbCdEf`
    const file = fake.file(fileKey, 'Icons')
    const page = file.addPage('Icons')
    file.addComponent(page, 'Star')
    const frame = file.addFrame(page, 'Sheet')

    const queued = await cli(['import', 'figma', figmaLink(fileKey), '--components', '--type', 'icon', '--collection', 'Figma icons', '--token', FIGMA_TOKEN])
    expect(queued.code, queued.stderr).toBe(0)
    const id = queued.stdout.trim()
    expect(id).toMatch(UUID)
    expect(await getImport(server.t.app, server.acme.writeKey, id)).toMatchObject({ select: 'components', metadata: { asset_type: 'Icon', collection_name: 'Figma icons' } })

    const nodes = await cli(['import', 'figma', figmaLink(fileKey), '--nodes', frame.replace(':', '-'), '--json'], withToken)
    expect(nodes.code, nodes.stderr).toBe(0)
    expect(JSON.parse(nodes.stdout)).toMatchObject({ select: 'nodes', node_ids: [frame], file_key: fileKey })
  })
})

describe('the organization\u2019s stored token', () => {
  it('is used when neither --token nor FIGMA_TOKEN is given', async () => {
    const initech = await seedOrganization(server.t.app, 'Initech')
    const stored = await (await loginOwner(server.t.app, initech)).put(`/app/api/orgs/${initech.org.slug}/integrations/figma`, { token: FIGMA_TOKEN })
    expect(stored.statusCode, stored.body).toBe(200)
    const fileKey = `CliStored${process.pid}AbCdEf`
    const file = fake.file(fileKey, 'Stored')
    file.addFrame(file.addPage('Page 1'), 'Cover')

    const run = await cli(['import', 'figma', figmaLink(fileKey), '--wait', '--json'], { ASSET_LIBRARY_KEY: initech.writeKey })
    expect(run.code, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'done', created: 1, file_name: 'Stored' })
    expect(fake.requests.filter((request) => request.url.startsWith(`/v1/files/${fileKey}`)).map((request) => request.token)).toEqual([FIGMA_TOKEN])
  })
})

describe('on a terminal', () => {
  it('--wait draws a progress bar instead of the plain lines, then prints the summary', async () => {
    const fileKey = `CliTty${process.pid}AbCdEf`
    const file = fake.file(fileKey, 'Screens')
    file.addFrames(file.addPage('Screens'), 3, 'Screen')
    // A slow Figma, so that the bar is drawn at least once before the run ends.
    fake.latencyMs = 400
    // util-linux `script` runs the command on a pseudo-terminal (stdout and stderr both), copying it to our pipe.
    const command = [process.execPath, ...CLI, 'import', 'figma', figmaLink(fileKey), '--wait'].map((word) => `'${word}'`).join(' ')
    const run = await new Promise<Run>((resolve) => {
      const child = spawn('script', ['-qec', command, '/dev/null'], {
        env: { ...process.env, ASSET_LIBRARY_URL: server.url, ASSET_LIBRARY_KEY: server.acme.writeKey, FIGMA_TOKEN },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let stdout = ''
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
      child.once('exit', (code) => resolve({ code, stdout, stderr: '' }))
    })
    expect(run.code, run.stdout).toBe(0)
    expect(run.stdout).toMatch(/[█░]{24} (queued|running): /)
    expect(run.stdout).toMatch(/import \S+ done: "Screens" \(version \S+\), run 1, 3 nodes: 3 created/)
    // No plain progress line: the bar takes its place.
    expect(run.stdout).not.toMatch(/^import \S+ (queued|running):/m)
  })
})

describe('refusals', () => {
  it('bad flags, a link that is not Figma\u2019s, and no token anywhere exit 2 with one line; another organization\u2019s import exits 1', async () => {
    const [both, format, link, noToken, stranger] = await Promise.all([
      cli(['import', 'figma', figmaLink('AbCdEf1234567890'), '--components', '--nodes', '1:2']),
      cli(['import', 'figma', figmaLink('AbCdEf1234567890'), '--format', 'gif']),
      cli(['import', 'figma', 'https://example.com/design/AbCdEf1234567890/Kit'], withToken),
      cli(['import', 'figma', figmaLink('AbCdEf1234567890')]),
      cli(['import', 'get', '0193a4f2-7b1c-7d3e-9f00-2a4b6c8d0e1f']),
    ])
    expect([both.code, format.code, link.code, noToken.code]).toEqual([2, 2, 2, 2])
    expect(both.stderr).toBe('asset-library-client: --components and --nodes pick different things: give one of them (see --help)\n')
    expect(format.stderr).toBe('asset-library-client: --format takes png, svg or jpg, not "gif" (see --help)\n')
    expect(link.stderr).toMatch(/^asset-library-client: the import was refused \(400 invalid_figma_url\): .+\n$/)
    expect(noToken.stderr).toBe('asset-library-client: no Figma token: give --token or set FIGMA_TOKEN, or store the organization\u2019s token (Settings \u2192 Integrations)\n')
    expect(stranger.code).toBe(1)
    expect(stranger.stderr).toBe('asset-library-client: no import 0193a4f2-7b1c-7d3e-9f00-2a4b6c8d0e1f in your organization (404 not_found)\n')
  })
})
