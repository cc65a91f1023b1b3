import { useCallback, useEffect, useRef, useState } from 'react'
import { createPump, importBody, pushFields, pushUntilFinal, titleOf, titleOfUrl, type BatchMetadata, type Final, type PushAnswer } from './queue'

export type ItemState = { kind: 'queued' } | { kind: 'sending'; progress: number } | { kind: 'waiting'; seconds: number } | Final

export interface UploadItem {
  id: number
  title: string
  /** The file's name, or the imported URL. */
  source: string
  size: number | null
  /** An object URL of the file for its thumbnail (none for URL imports). */
  preview: string | null
  state: ItemState
}

export type Sender = (body: FormData | Record<string, unknown>, onProgress: (fraction: number) => void) => Promise<PushAnswer>

export const UPLOAD_CONCURRENCY = 2

/**
 * The upload queue: every file or URL becomes a row that is sent two at a time, shows its progress,
 * waits out a 429's Retry-After, and ends new, duplicate or failed with the problem's detail.
 */
export function useUploadQueue(send: Sender, options: { onSettled?: () => void; wait?: (ms: number) => Promise<void> } = {}) {
  const [items, setItems] = useState<UploadItem[]>([])
  const pump = useRef<ReturnType<typeof createPump> | null>(null)
  const nextId = useRef(1)
  const settledRef = useRef(options.onSettled)
  const waitRef = useRef(options.wait)
  useEffect(() => {
    settledRef.current = options.onSettled
    waitRef.current = options.wait
  })

  const update = useCallback((id: number, state: ItemState) => {
    setItems((all) => all.map((item) => (item.id === id ? { ...item, state } : item)))
  }, [])

  const enqueue = useCallback(
    (item: Omit<UploadItem, 'id' | 'state'>, body: () => FormData | Record<string, unknown>) => {
      const id = nextId.current++
      setItems((all) => [...all, { ...item, id, state: { kind: 'queued' } }])
      pump.current ??= createPump(UPLOAD_CONCURRENCY)
      pump.current.add(async () => {
        const outcome = await pushUntilFinal(
          () => {
            update(id, { kind: 'sending', progress: 0 })
            return send(body(), (progress) => update(id, { kind: 'sending', progress }))
          },
          (seconds) => update(id, { kind: 'waiting', seconds }),
          { wait: waitRef.current },
        )
        update(id, outcome)
        settledRef.current?.()
      })
    },
    [send, update],
  )

  const addFiles = useCallback(
    (files: readonly File[], meta: BatchMetadata) => {
      for (const file of files) {
        const title = titleOf(file.name)
        const preview = typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null
        enqueue({ title, source: file.name, size: file.size, preview }, () => {
          const form = new FormData()
          for (const [key, value] of pushFields(meta, title)) form.append(key, value)
          form.append('file', file, file.name)
          return form
        })
      }
    },
    [enqueue],
  )

  const addUrl = useCallback(
    (url: string, meta: BatchMetadata) => {
      const title = titleOfUrl(url)
      enqueue({ title, source: url, size: null, preview: null }, () => importBody(meta, url, title))
    },
    [enqueue],
  )

  const clearFinished = useCallback(() => {
    setItems((all) => {
      for (const item of all) if (isFinal(item.state) && item.preview) URL.revokeObjectURL(item.preview)
      return all.filter((item) => !isFinal(item.state))
    })
  }, [])

  return { items, addFiles, addUrl, clearFinished }
}

export const isFinal = (state: ItemState): state is Final => state.kind === 'new' || state.kind === 'duplicate' || state.kind === 'failed'

/** "3 files: 2 new, 1 duplicate" and what is still going on. */
export function summarize(items: readonly UploadItem[]): string {
  const count = (kind: ItemState['kind']) => items.filter((item) => item.state.kind === kind).length
  const parts = [`${count('new')} new`, `${count('duplicate')} duplicate`, `${count('failed')} failed`]
  const going = items.length - items.filter((item) => isFinal(item.state)).length
  const head = `${items.length} ${items.length === 1 ? 'item' : 'items'}: ${parts.join(', ')}`
  return going > 0 ? `${head}; ${going} in progress` : head
}
