import { execFileSync, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it, vi } from 'vitest'
import { COMMAND_HELP, COMMANDS, HELP, type Command } from '../src/cli/usage.js'

// A real process that tsx compiles at start: seconds on a shared 2-core machine.
vi.setConfig({ testTimeout: 60_000 })

const CLI = ['--import', 'tsx', 'packages/client/src/cli/main.ts']

function run(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const answer = spawnSync(process.execPath, [...CLI, ...args], { encoding: 'utf8', env: { ...process.env, ASSET_LIBRARY_URL: '', ASSET_LIBRARY_KEY: '' } })
  return { code: answer.status, stdout: answer.stdout, stderr: answer.stderr }
}

describe('help', () => {
  it.each(Object.keys(COMMANDS) as Command[])('%s --help names every option the command takes', (command) => {
    const help = COMMAND_HELP[command]
    expect(help).toMatch(new RegExp(`^Usage: asset-library-client ${command}\\b`))
    for (const option of Object.keys(COMMANDS[command])) expect(help, `--${option}`).toMatch(new RegExp(`--${option}\\b`))
    expect(HELP).toContain(`asset-library-client ${command}`)
  })

  it('the overview names list --offset, and list and search --color and --provenance', () => {
    expect(HELP).toMatch(/list .*--offset N/)
    expect(HELP).toMatch(/list .*--color NAME\] \[--provenance P\]/)
    expect(HELP).toMatch(/search .*--color NAME\] \[--provenance P\]/)
  })

  it('list and search --help name every origin --provenance takes, as openapi/v1.json lists them', () => {
    const document = JSON.parse(readFileSync(new URL('../../../openapi/v1.json', import.meta.url), 'utf8')) as {
      paths: Record<string, { get: { parameters: Array<{ name: string; schema: { enum?: string[] } }> } }>
    }
    const origins = document.paths['/api/v1/assets']!.get.parameters.find((parameter) => parameter.name === 'provenance')!.schema.enum!
    expect(origins).toContain('ai_composite')
    for (const command of ['list', 'search'] as const) {
      const option = COMMAND_HELP[command].slice(COMMAND_HELP[command].indexOf('--provenance'))
      for (const origin of origins) expect(option, origin).toMatch(new RegExp(`\\b${origin}\\b`))
    }
  })

  it('prints the command\'s own help, exit 0, for mcp --help and list -h', () => {
    const mcp = run(['mcp', '--help'])
    expect(mcp.code).toBe(0)
    expect(mcp.stdout).toBe(`${COMMAND_HELP.mcp}\n`)
    expect(mcp.stdout).not.toContain('push and check')

    const list = run(['list', '-h'])
    expect(list.code).toBe(0)
    expect(list.stdout).toBe(`${COMMAND_HELP.list}\n`)
  })
})

describe('bad usage before any request: exit 2 with one line', () => {
  it.each([
    ['an empty --color', ['list', '--color', ''], /--color needs a value/],
    ['an empty --provenance', ['search', 'poster', '--provenance', ''], /--provenance needs a value/],
    ['duplicates without an action', ['duplicates'], /duplicates list or duplicates resolve <keep-id> <other-id…>/],
    ['duplicates resolve with nothing to trash', ['duplicates', 'resolve', '0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55'], /duplicates resolve <keep-id> <other-id…>/],
    ['colors with an argument', ['colors', 'red'], /colors takes no arguments/],
  ])('%s', (_name, args, message) => {
    const answer = run(args)
    expect(answer.code).toBe(2)
    expect(answer.stderr.trim().split('\n')).toEqual([expect.stringMatching(message)])
  })
})

describe('packaging', () => {
  it('git ignores the tarball npm pack -w @asset-library/client writes at the root', () => {
    const { name, version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string; version: string }
    // npm's name for a scoped package's tarball: @scope/name → scope-name-version.tgz.
    const tarball = `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`
    expect(tarball).toBe('asset-library-client-0.1.0.tgz')
    expect(execFileSync('git', ['check-ignore', '--no-index', tarball], { encoding: 'utf8' }).trim()).toBe(tarball)
  })
})
