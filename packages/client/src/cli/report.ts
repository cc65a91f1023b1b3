import type { MultiBar, SingleBar } from 'cli-progress'
import type { NearDuplicateReport } from './near-duplicates.js'

/** Loaded only for a terminal: a script's run (stderr a pipe or a file) does not pay for it at start. */
const cliProgress = process.stderr.isTTY ? (await import('cli-progress')).default : undefined

/**
 * What became of one file. `missing`: not in the library, and not pushed (check, or push --dry-run).
 * `updated`: pushed with --sync as a new version of the asset of its path.
 */
export type Outcome = 'pushed' | 'updated' | 'duplicate' | 'missing' | 'skipped' | 'failed'

export interface FileEvent {
  event: Outcome
  path: string
  asset_id: string | null
  reason: string | null
}

export type Counts = Record<Outcome, number>

/** push; push --dry-run; check. */
export type RunMode = 'push' | 'dry-run' | 'check'

export interface Summary extends Counts {
  event: 'summary'
  files: number
  /** Files found but not settled when the run stopped (Ctrl-C, or the server lost). */
  pending: number
  bytes_read: number
  bytes_pushed: number
  seconds: number
  dry_run: boolean
  stopped: boolean
}

/** What the progress line shows, read from the run at each redraw. */
export interface Progress {
  found: number
  walkDone: boolean
  settled: number
  /** Bytes of the files found missing so far, and of those pushed. */
  bytesToPush: number
  bytesPushed: number
  toPush: number
  pushed: number
  startedAt: number
  /** Pushes per second the rate limit allows, when known. */
  ceiling: number | undefined
  waitingUntil: number | undefined
}

const LABELS: Record<Outcome, string> = { pushed: 'pushed', updated: 'updated', duplicate: 'in library', missing: 'missing', skipped: 'skipped', failed: 'failed' }
const PLAIN_PROGRESS_EVERY_MS = 10_000

/**
 * Where a run's output goes. `--json`: one NDJSON line per file on stdout, then the summary. Otherwise a
 * line per file, on stdout when the lines are the answer (check), on stderr when they narrate (push);
 * while pushing to a terminal, a progress bar on stderr takes the place of the narration, with skipped
 * and failed files printed above it. Off a terminal, a progress line every 10 s.
 */
export class Reporter {
  private bar: MultiBar | undefined
  private barLine: SingleBar | undefined
  private ticker: NodeJS.Timeout | undefined
  /** A process.exit (a second Ctrl-C) skips finish(): the bar is cleared and the cursor shown on the way out. */
  private readonly clearBar = () => this.bar?.stop()

  constructor(
    private readonly options: { json: boolean; mode: RunMode; progress: () => Progress },
    private readonly stdout: NodeJS.WriteStream = process.stdout,
    private readonly stderr: NodeJS.WriteStream = process.stderr,
  ) {}

  start(): void {
    const narrating = !this.fileLinesAreAnswer
    if (cliProgress && this.stderr.isTTY && (narrating || this.options.json)) {
      this.bar = new cliProgress.MultiBar(
        { stream: this.stderr, hideCursor: true, clearOnComplete: true, format: '{bar} {line}', barsize: 24 },
        cliProgress.Presets.shades_classic,
      )
      this.barLine = this.bar.create(1, 0, { line: 'finding files' })
      process.once('exit', this.clearBar)
      this.ticker = setInterval(() => this.redraw(), 500)
    } else if (narrating && !this.options.json) {
      this.ticker = setInterval(() => this.stderr.write(`progress: ${describe(this.options.progress())}\n`), PLAIN_PROGRESS_EVERY_MS)
    }
    this.ticker?.unref()
  }

  file(event: FileEvent): void {
    if (this.options.json) this.stdout.write(`${JSON.stringify(event)}\n`)
    else {
      const detail = event.reason ? `: ${event.reason}` : event.asset_id ? ` (${event.asset_id})` : ''
      const line = `${LABELS[event.event].padEnd(10)} ${event.path}${detail}\n`
      if (this.fileLinesAreAnswer) this.stdout.write(line)
      else if (this.bar) {
        if (event.event === 'failed' || event.event === 'skipped') this.bar.log(line)
      } else this.stderr.write(line)
    }
    this.redraw()
  }

  /** A line for a person (not a file's outcome): above the bar, or on stderr. */
  note(text: string): void {
    if (this.bar) this.bar.log(`${text}\n`)
    else this.stderr.write(`${text}\n`)
  }

  /**
   * A pushed file's near-duplicates, when it has some (or when they are not known in time): one line per
   * near-duplicate on stdout (an answer, not narration), or the report as one NDJSON line.
   */
  nearDuplicates(report: NearDuplicateReport): void {
    if (report.near_duplicates?.length === 0) return
    if (this.options.json) {
      this.stdout.write(`${JSON.stringify({ event: 'near_duplicates', ...report })}\n`)
      return
    }
    this.bar?.stop()
    if (report.near_duplicates === null) {
      this.stdout.write(`${'near-dup?'.padEnd(10)} ${report.path}: not hashed yet; its record (${report.asset_id}) lists its near-duplicates once it is\n`)
      return
    }
    for (const near of report.near_duplicates) this.stdout.write(`${'near-dup'.padEnd(10)} ${report.path}: near-duplicate of ${near.asset_id} (distance ${near.distance})\n`)
  }

  finish(summary: Summary): void {
    if (this.ticker) clearInterval(this.ticker)
    process.off('exit', this.clearBar)
    this.bar?.stop()
    if (this.options.json) {
      this.stdout.write(`${JSON.stringify(summary)}\n`)
      return
    }
    this.stdout.write(`${summaryLine(summary, this.options.mode)}\n`)
  }

  /** check's lines are its answer (stdout); a push's narrate it (stderr). */
  private get fileLinesAreAnswer(): boolean {
    return this.options.mode === 'check'
  }

  private redraw(): void {
    if (!this.barLine) return
    const progress = this.options.progress()
    this.barLine.setTotal(Math.max(1, progress.found))
    this.barLine.update(progress.settled, { line: describe(progress) })
  }
}

/** What the run did, in its own words: a check pushes nothing, a dry run says what would be pushed. */
export function summaryLine(summary: Summary, mode: RunMode): string {
  const parts = {
    push: [`${summary.pushed} pushed`, ...(summary.updated > 0 ? [`${summary.updated} updated`] : []), `${summary.duplicate} already in the library`],
    'dry-run': [`${summary.missing} would be pushed`, `${summary.duplicate} already in the library`],
    check: [`${summary.duplicate} in the library`, `${summary.missing} missing`],
  }[mode]
  parts.push(`${summary.skipped} skipped`, `${summary.failed} failed`)
  if (summary.pending > 0) parts.push(`${summary.pending} not done`)
  const bytes = mode === 'push' ? `${mib(summary.bytes_pushed)} pushed, ${mib(summary.bytes_read)} read` : `${mib(summary.bytes_read)} read`
  return `${summary.files} files${mode === 'check' ? ' checked' : ''}: ${parts.join(', ')} in ${summary.seconds.toFixed(1)} s (${bytes})`
}

/** Files, bytes, rate, and an ETA from the measured rate held under what the limit allows. */
export function describe(progress: Progress): string {
  const elapsed = (Date.now() - progress.startedAt) / 1000
  const rate = elapsed > 0 ? progress.pushed / elapsed : 0
  const pace = progress.ceiling !== undefined ? Math.min(rate || progress.ceiling, progress.ceiling) : rate
  const left = progress.toPush - progress.pushed
  // While a window is spent, nothing moves until its reset; after it, the pace the limit allows.
  const waitSeconds = progress.waitingUntil ? Math.max(0, (progress.waitingUntil - Date.now()) / 1000) : 0
  const seconds = pace > 0 ? Math.max(left / pace, waitSeconds + left / (rate || pace)) : undefined
  const eta = left === 0 || seconds === undefined ? '' : ` | ETA ${duration(seconds)}${progress.walkDone ? '' : '+'}`
  const waiting = progress.waitingUntil ? ` | rate limit: waiting ${duration(waitSeconds)}` : ''
  return (
    `${progress.settled}/${progress.found}${progress.walkDone ? '' : '+'} files, ` +
    `${progress.pushed}/${progress.toPush} pushed, ${mib(progress.bytesPushed)} of ${mib(progress.bytesToPush)}, ${rate.toFixed(1)}/s${eta}${waiting}`
  )
}

function duration(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds))
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`
}
