import { sweepBlobs } from '../modules/assets/blob-sweep.js'
import { FileBlobStore } from '../platform/blobs/blob-store.js'
import type { Commands } from './command.js'
import { output, plural } from './output.js'

export const blobCommands: Commands = {
  'blobs sweep': async ({ values, config, database }) => {
    const { removed, recent } = await sweepBlobs(database.db, new FileBlobStore(config.blobDir), config.blobSweepGraceMs)
    return output(values, { removed, recent }, `Removed ${plural(removed, 'image file')} no asset refers to${recent > 0 ? `; kept ${recent} newer than the grace period` : ''}`)
  },
}
