import { BlobCopyMismatchError, migrateBlobs } from '../modules/assets/blob-migration.js'
import { sweepBlobs } from '../modules/assets/blob-sweep.js'
import { createBlobStore, type BlobStoreKind } from '../platform/blobs/create.js'
import { progressBar, type Progress } from '../platform/progress.js'
import { UsageError, type Options } from './arguments.js'
import type { Commands, OptionChecks } from './command.js'
import { output, plural } from './output.js'

const STORES: BlobStoreKind[] = ['file', 's3']

export const blobCommands: Commands = {
  'blobs sweep': async ({ values, config, database }) => {
    const blobs = createBlobStore(config)
    try {
      const { removed, recent } = await sweepBlobs(database.db, blobs, config.blobSweepGraceMs)
      return output(values, { removed, recent }, `Removed ${plural(removed, 'image file')} no asset refers to${recent > 0 ? `; kept ${recent} newer than the grace period` : ''}`)
    } finally {
      blobs.close?.()
    }
  },
  'blobs migrate': async ({ values, config, database }) => {
    const [fromKind, toKind] = migrateStores(values)
    const from = createBlobStore(config, fromKind)
    const to = createBlobStore(config, toKind)
    try {
      await Promise.all([from.checkReachable(), to.checkReachable()])
      let bar: Progress | undefined
      const outcome = await migrateBlobs(database.db, { from, to }, (done, total) => {
        bar ??= progressBar(`Copying image files from ${fromKind} to ${toKind}`, total)
        bar.update(done)
      })
      bar?.finish()
      const { copied, alreadyThere, missing } = outcome
      const text = [
        `Copied ${plural(copied, 'image file')} from ${fromKind} to ${toKind}, each read back with its SHA-256; ${alreadyThere} already there`,
        ...(missing.length > 0 ? [`${plural(missing.length, 'file')} that assets refer to ${missing.length === 1 ? 'is' : 'are'} missing from ${fromKind}: ${missing.join(', ')}`] : []),
      ].join('\n')
      output(values, { copied, already_there: alreadyThere, missing }, text)
      return missing.length > 0 ? 1 : 0
    } catch (error) {
      if (!(error instanceof BlobCopyMismatchError)) throw error
      process.stderr.write(`asset-library: ${error.message}\n`)
      return 1
    } finally {
      from.close?.()
      to.close?.()
    }
  },
}

/** The options of the blob commands, checked before the database is opened (or, on a new machine, made). */
export const blobOptionChecks: OptionChecks = {
  'blobs migrate': (values) => void migrateStores(values),
}

/** `--from` and `--to` of `blobs migrate`: two different stores. */
function migrateStores(values: Options): [BlobStoreKind, BlobStoreKind] {
  const [fromKind, toKind] = [storeOption(values, 'from'), storeOption(values, 'to')]
  if (fromKind === toKind) throw new UsageError('--from and --to must name different stores (file, s3)')
  return [fromKind, toKind]
}

function storeOption(values: Options, name: 'from' | 'to'): BlobStoreKind {
  const value = values[name]
  if (!value || !(STORES as string[]).includes(value)) throw new UsageError(`--${name} must be one of ${STORES.join(', ')}`)
  return value as BlobStoreKind
}
