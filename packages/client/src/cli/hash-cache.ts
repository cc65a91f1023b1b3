import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import type { Fingerprint } from './files.js'

interface Entry {
  path: string
  size: number
  mtimeMs: number
  fingerprint: Fingerprint
}

/**
 * What each file's bytes were last time: path, size and mtime → SHA-256 and format (or why it is no
 * image), so an unchanged folder is re-run without reading a file. One NDJSON file for every server:
 * a file's hash does not depend on where it goes, and what a server has is asked on every run. Each
 * entry is appended as soon as it is known, so a run killed halfway keeps what it hashed; the last
 * line of a path wins, and the file is rewritten without the superseded lines when they outnumber the
 * live ones.
 */
export class HashCache {
  private readonly entries = new Map<string, Entry>()
  private broken = false
  private folderMade = false

  private constructor(private readonly file: string | undefined) {}

  /** The cache at `$XDG_CACHE_HOME/asset-library/file-hashes.ndjson` (default `~/.cache`), or none. */
  static open(env: NodeJS.ProcessEnv, enabled: boolean): HashCache {
    if (!enabled) return new HashCache(undefined)
    const base = env.XDG_CACHE_HOME || join(homedir(), '.cache')
    const cache = new HashCache(join(base, 'asset-library', 'file-hashes.ndjson'))
    cache.load()
    return cache
  }

  get(path: string, size: number, mtimeMs: number): Fingerprint | undefined {
    const entry = this.entries.get(resolve(path))
    return entry && entry.size === size && entry.mtimeMs === mtimeMs ? entry.fingerprint : undefined
  }

  set(path: string, size: number, mtimeMs: number, fingerprint: Fingerprint): void {
    const entry = { path: resolve(path), size, mtimeMs, fingerprint }
    this.entries.set(entry.path, entry)
    this.write(() => appendFileSync(this.file!, `${JSON.stringify(entry)}\n`))
  }

  private load(): void {
    let text: string
    try {
      text = readFileSync(this.file!, 'utf8')
    } catch {
      return
    }
    const lines = text.split('\n').filter((line) => line !== '')
    for (const line of lines) {
      try {
        const entry = JSON.parse(line) as Entry
        this.entries.set(entry.path, entry)
      } catch {
        // A line cut short by a kill mid-write: that file is hashed again.
      }
    }
    if (lines.length > 1000 && lines.length > 2 * this.entries.size) this.compact()
  }

  private compact(): void {
    const temporary = `${this.file}.${process.pid}.tmp`
    this.write(() => {
      writeFileSync(temporary, [...this.entries.values()].map((entry) => `${JSON.stringify(entry)}\n`).join(''))
      renameSync(temporary, this.file!)
    })
  }

  /** A cache that cannot be written (read-only home, full disk) only costs hashing again next time. */
  private write(action: () => void): void {
    if (this.file === undefined || this.broken) return
    try {
      if (!this.folderMade) mkdirSync(dirname(this.file), { recursive: true })
      this.folderMade = true
      action()
    } catch (error) {
      this.broken = true
      process.emitWarning(`the hash cache ${this.file} cannot be written (${(error as Error).message}); the next run reads every file again`)
    }
  }
}
