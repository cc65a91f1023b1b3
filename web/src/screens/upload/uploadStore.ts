import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react'
import { sessionRequestHeaders, whenSignedOut } from '../../api/client'
import { invalidateAssetData } from '../../api/cache'
import { plural } from '../../ui/format'
import { createPump, sleep } from '../../api/pacing'
import { importBody, pushFields, pushUntilFinal, titleOf, titleOfUrl, type BatchMetadata, type Final, type PushAnswer } from './queue'
import { sendPush, type PushRequest } from './send'

export type ItemState = { kind: 'queued' } | { kind: 'sending'; progress: number } | { kind: 'waiting'; seconds: number } | Final

export interface UploadItem {
  id: number
  title: string
  /** The file's name, or the imported URL. */
  source: string
  size: number | null
  /** An object URL of the file for its thumbnail (none for URL imports); revoked when the row goes. */
  preview: string | null
  /** Who queued it (user id): another user signing in on this tab never sees it. */
  owner: string
  /** The organization it goes to, fixed when it was queued. */
  organization: string
  /** The file's XMP says AI made it, so it is pushed as made by AI whatever the batch says. */
  declaresAi: boolean
  state: ItemState
}

export type Sender = (request: PushRequest, onProgress: (fraction: number) => void, signal: AbortSignal) => Promise<PushAnswer>

interface StoreOptions {
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>
  /** Where to warn before leaving while uploads run (the page's window; none in tests that do not ask). */
  target?: Pick<Window, 'addEventListener' | 'removeEventListener'> | null
}

/** Who queues a batch (one drop, pick or import), and what to refresh once all of its rows have ended. */
export interface Batch {
  meta: BatchMetadata
  owner: string
  onSettled?: () => void
}

/**
 * Calls the batch's `onSettled` once, when the last of its `size` rows ends, unless every one of them
 * was cancelled: the catalogue and the lists are loaded again once per batch, not once per file (which
 * spent the user's reads on 4 lists a file).
 */
function settleOnce(batch: Batch, size: number): (outcome: Final) => void {
  let left = size
  let sent = false
  return (outcome) => {
    left--
    if (outcome.kind !== 'cancelled') sent = true
    if (left === 0 && sent) batch.onSettled?.()
  }
}

export const isFinal = (state: ItemState): state is Final =>
  state.kind === 'new' || state.kind === 'duplicate' || state.kind === 'failed' || state.kind === 'cancelled'

/**
 * The upload queue, outside React so it outlives the Upload screen: rows and their requests carry on
 * while the user browses, and are there when they come back. Every file or URL becomes a row sent two
 * at a time with the session headers of the moment it was queued (a later organization switch does
 * not redirect it); a 429 waits out its Retry-After; each row ends new, duplicate, failed with the
 * problem's detail, or cancelled. While anything is unfinished, leaving the page asks first.
 */
export function createUploadStore(send: Sender, options: StoreOptions = {}) {
  const target = options.target === undefined ? (typeof window === 'undefined' ? null : window) : options.target
  const pump = createPump(2)
  const controllers = new Map<number, AbortController>()
  const listeners = new Set<() => void>()
  let items: readonly UploadItem[] = []
  let nextId = 1
  let warning = false

  const warnBeforeLeaving = (event: BeforeUnloadEvent) => {
    event.preventDefault()
    event.returnValue = ''
  }

  const emit = (next: readonly UploadItem[]) => {
    items = next
    const busy = items.some((item) => !isFinal(item.state))
    if (target && busy !== warning) {
      if (busy) target.addEventListener('beforeunload', warnBeforeLeaving)
      else target.removeEventListener('beforeunload', warnBeforeLeaving)
    }
    warning = busy
    for (const listener of listeners) listener()
  }

  const update = (id: number, state: ItemState) => {
    const item = items.find((i) => i.id === id)
    // A cancelled row keeps its state; a removed row stays removed.
    if (!item || isFinal(item.state)) return
    emit(items.map((i) => (i.id === id ? { ...i, state } : i)))
  }

  const drop = (keep: (item: UploadItem) => boolean) => {
    const gone = items.filter((item) => !keep(item))
    if (gone.length === 0) return
    for (const item of gone) {
      controllers.get(item.id)?.abort()
      controllers.delete(item.id)
      if (item.preview) URL.revokeObjectURL(item.preview)
    }
    emit(items.filter(keep))
  }

  const enqueue = (row: Pick<UploadItem, 'title' | 'source' | 'size' | 'preview' | 'declaresAi'>, batch: Batch, settled: (outcome: Final) => void, body: () => PushRequest['body']) => {
    // Headers now, not when it is sent: the organization and session of the moment it was queued.
    const headers = sessionRequestHeaders('POST')
    const id = nextId++
    const controller = new AbortController()
    controllers.set(id, controller)
    emit([...items, { ...row, id, owner: batch.owner, organization: headers['x-organization'] ?? '', state: { kind: 'queued' } }])
    pump.add(async () => {
      const outcome = await pushUntilFinal(
        () => {
          update(id, { kind: 'sending', progress: 0 })
          return send({ body: body(), headers }, (progress) => update(id, { kind: 'sending', progress }), controller.signal)
        },
        (seconds) => update(id, { kind: 'waiting', seconds }),
        { wait: options.wait ?? sleep, signal: controller.signal },
      )
      controllers.delete(id)
      update(id, outcome)
      settled(outcome)
    })
  }

  return {
    subscribe(listener: () => void) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    getItems: () => items,

    /** Queues the files with the batch's details; those in `declaringAi` go as made by AI, as they say. */
    addFiles(files: readonly File[], batch: Batch, declaringAi: ReadonlySet<File> = new Set()) {
      const settled = settleOnce(batch, files.length)
      for (const file of files) {
        const title = titleOf(file.name)
        const preview = typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null
        const declaresAi = declaringAi.has(file)
        const meta = declaresAi ? { ...batch.meta, created_by_ai: true } : batch.meta
        enqueue({ title, source: file.name, size: file.size, preview, declaresAi }, batch, settled, () => {
          const form = new FormData()
          for (const [key, value] of pushFields(meta, title)) form.append(key, value)
          form.append('file', file, file.name)
          return form
        })
      }
    },

    addUrl(url: string, batch: Batch) {
      const title = titleOfUrl(url)
      enqueue({ title, source: url, size: null, preview: null, declaresAi: false }, batch, settleOnce(batch, 1), () => importBody(batch.meta, url, title))
    },

    /** Stops a queued, waiting or sending row; its request is aborted and nothing more is sent. */
    cancel(id: number) {
      const item = items.find((i) => i.id === id)
      if (!item || isFinal(item.state)) return
      controllers.get(id)?.abort()
      emit(items.map((i) => (i.id === id ? { ...i, state: { kind: 'cancelled' } } : i)))
    },

    clearFinished() {
      drop((item) => !isFinal(item.state))
    },

    /** Another user on this tab: what the previous one queued stops and goes. */
    keepOwner(owner: string) {
      drop((item) => item.owner === owner)
    },

    /** Signed out: everything stops and goes. */
    clear() {
      drop(() => false)
    },
  }
}

export type UploadStore = ReturnType<typeof createUploadStore>

/** The tab's one queue; signing out (or losing the session) empties it. */
export const uploads = createUploadStore((request, onProgress, signal) => sendPush(request, onProgress, signal))
whenSignedOut(() => uploads.clear())

/** The queue's rows and actions, for the signed-in user; every finished batch refreshes what assets feed. */
export function useUploads(owner: string, store: UploadStore = uploads) {
  const queryClient = useQueryClient()
  const all = useSyncExternalStore(store.subscribe, store.getItems)
  const items = useMemo(() => all.filter((item) => item.owner === owner), [all, owner])
  useEffect(() => store.keepOwner(owner), [store, owner])
  const onSettled = useCallback(() => void invalidateAssetData(queryClient), [queryClient])
  return useMemo(
    () => ({
      items,
      addFiles: (files: readonly File[], meta: BatchMetadata, declaringAi?: ReadonlySet<File>) => store.addFiles(files, { meta, owner, onSettled }, declaringAi),
      addUrl: (url: string, meta: BatchMetadata) => store.addUrl(url, { meta, owner, onSettled }),
      cancel: store.cancel,
      clearFinished: store.clearFinished,
    }),
    [items, store, owner, onSettled],
  )
}

/** "3 items: 2 new, 1 duplicate, 0 failed", the cancelled ones when there are, and what is still going on. */
export function summarize(items: readonly UploadItem[]): string {
  const count = (kind: ItemState['kind']) => items.filter((item) => item.state.kind === kind).length
  const parts = [`${count('new')} new`, `${count('duplicate')} duplicate`, `${count('failed')} failed`]
  if (count('cancelled') > 0) parts.push(`${count('cancelled')} cancelled`)
  const going = items.length - items.filter((item) => isFinal(item.state)).length
  const head = `${plural(items.length, 'item')}: ${parts.join(', ')}`
  return going > 0 ? `${head}; ${going} in progress` : head
}
