import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { sessionHeaders } from '../../api/client'
import type { PushAnswer } from './queue'
import type { PushRequest } from './send'
import { createUploadStore, summarize, useUploads, type Sender } from './uploadStore'

const META = { asset_type: '', client: '', product: '', tags: 'launch', created_by_ai: true, collection_name: '' }
const batch = { meta: META, owner: 'user-1' }
const png = (name: string) => new File([name], name, { type: 'image/png' })
const flush = () => act(async () => await new Promise((resolve) => setTimeout(resolve, 0)))

/** A sender whose answers the test gives, one call at a time. */
function fakeSender() {
  const calls: Array<{ request: PushRequest; signal: AbortSignal; progress(f: number): void; answer(a: PushAnswer): void }> = []
  const send: Sender = (request, progress, signal) => new Promise((answer) => calls.push({ request, signal, progress, answer }))
  return { send, calls }
}

/** A queue, and a query client whose invalidations are recorded, for the `useUploads` hook. */
function storeWithQueryClient() {
  const { send, calls } = fakeSender()
  const store = createUploadStore(send, { target: null })
  const queryClient = new QueryClient()
  const invalidated = vi.spyOn(queryClient, 'invalidateQueries')
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  return { calls, store, invalidated, wrapper }
}

beforeEach(() => {
  sessionHeaders.csrf = 'token-1'
  sessionHeaders.organization = 'acme'
  let n = 0
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => `blob:preview-${++n}`)
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined)
})
afterEach(() => vi.restoreAllMocks())

describe('the upload queue', () => {
  it('sends two files at a time, shows progress, and ends each new, duplicate or failed with the server’s detail', async () => {
    const { send, calls } = fakeSender()
    let settled = 0
    const store = createUploadStore(send, { target: null })
    store.addFiles(['a.png', 'b.png', 'c.png'].map(png), { ...batch, onSettled: () => settled++ })

    expect(store.getItems().map((i) => i.title)).toEqual(['a', 'b', 'c'])
    await flush()
    expect(calls).toHaveLength(2)
    const form = calls[0]!.request.body as FormData
    expect(form.get('title')).toBe('a')
    expect(form.getAll('tag_names')).toEqual(['launch'])
    expect(form.get('created_by_ai')).toBe('true')
    expect((form.get('file') as File).name).toBe('a.png')

    calls[0]!.progress(0.5)
    expect(store.getItems()[0]!.state).toEqual({ kind: 'sending', progress: 0.5 })
    expect(store.getItems()[2]!.state).toEqual({ kind: 'queued' })

    calls[0]!.answer({ status: 201, body: { asset_id: 'id-a', duplicate: false }, retryAfter: null })
    await flush()
    expect(calls).toHaveLength(3)
    expect(settled).toBe(0)
    calls[1]!.answer({ status: 413, body: { code: 'image_too_large', detail: 'The file is larger than 25 MiB.', errors: [{ pointer: '/file', detail: 'too large' }] }, retryAfter: null })
    calls[2]!.answer({ status: 200, body: { asset_id: 'id-a', duplicate: true }, retryAfter: null })
    await flush()

    // The lists and the catalogue are loaded again once for the batch, not once per file.
    expect(settled).toBe(1)
    expect(store.getItems().map((i) => i.state)).toEqual([
      { kind: 'new', assetId: 'id-a' },
      { kind: 'failed', detail: 'The file is larger than 25 MiB. file: too large' },
      { kind: 'duplicate', assetId: 'id-a' },
    ])
    expect(summarize(store.getItems())).toBe('3 items: 1 new, 1 duplicate, 1 failed')
    store.clearFinished()
    expect(store.getItems()).toEqual([])
    expect(vi.mocked(URL.revokeObjectURL).mock.calls.map(([url]) => url)).toEqual(['blob:preview-1', 'blob:preview-2', 'blob:preview-3'])
  })

  it('shows the wait of a 429 and sends the file again when it is over', async () => {
    const { send, calls } = fakeSender()
    const waits: Array<() => void> = []
    const wait = () => new Promise<void>((resolve) => waits.push(resolve))
    const store = createUploadStore(send, { wait, target: null })
    store.addUrl('https://example.com/images/hero.png', batch)
    await flush()
    expect(calls[0]!.request.body).toEqual({ image_url: 'https://example.com/images/hero.png', title: 'hero', tag_names: ['launch'], created_by_ai: true })

    calls[0]!.answer({ status: 429, body: { detail: 'Too many requests.' }, retryAfter: '2' })
    await flush()
    expect(store.getItems()[0]!.state).toEqual({ kind: 'waiting', seconds: 2 })
    expect(summarize(store.getItems())).toBe('1 item: 0 new, 0 duplicate, 0 failed; 1 in progress')
    waits.shift()!()
    await flush()
    expect(store.getItems()[0]!.state).toEqual({ kind: 'waiting', seconds: 1 })
    waits.shift()!()
    await flush()
    expect(calls).toHaveLength(2)
    calls[1]!.answer({ status: 201, body: { asset_id: 'id-h', duplicate: false }, retryAfter: null })
    await flush()
    expect(store.getItems()[0]!.state).toEqual({ kind: 'new', assetId: 'id-h' })
  })

  it('sends each file with the organization and CSRF token of the moment it was queued', async () => {
    const { send, calls } = fakeSender()
    const store = createUploadStore(send, { target: null })
    store.addFiles(['a.png', 'b.png', 'c.png'].map(png), batch)
    // The user switches organization while the third file still waits for a lane.
    sessionHeaders.organization = 'globex'
    sessionHeaders.csrf = 'token-2'
    store.addFiles([png('d.png')], batch)
    await flush()
    calls[0]!.answer({ status: 201, body: { asset_id: 'id-a', duplicate: false }, retryAfter: null })
    calls[1]!.answer({ status: 201, body: { asset_id: 'id-b', duplicate: false }, retryAfter: null })
    await flush()
    expect(calls.map((c) => c.request.headers)).toEqual([
      { 'x-csrf-token': 'token-1', 'x-organization': 'acme' },
      { 'x-csrf-token': 'token-1', 'x-organization': 'acme' },
      { 'x-csrf-token': 'token-1', 'x-organization': 'acme' },
      { 'x-csrf-token': 'token-2', 'x-organization': 'globex' },
    ])
    expect(store.getItems().map((i) => i.organization)).toEqual(['acme', 'acme', 'acme', 'globex'])
  })

  it('cancels a file being sent (its request is aborted) and a queued one (never sent), and frees the lane', async () => {
    const { send, calls } = fakeSender()
    let settled = 0
    const store = createUploadStore(send, { target: null })
    store.addFiles(['a.png', 'b.png', 'c.png', 'd.png'].map(png), { ...batch, onSettled: () => settled++ })
    await flush()
    const [a, b, c, d] = store.getItems()
    store.cancel(a!.id)
    store.cancel(c!.id)
    expect(calls[0]!.signal.aborted).toBe(true)
    // The aborted request ends as the XHR reports an abort: status 0.
    calls[0]!.answer({ status: 0, body: null, retryAfter: null })
    await flush()
    expect(calls.map((call) => (call.request.body as FormData).get('title'))).toEqual(['a', 'b', 'd'])
    calls[1]!.answer({ status: 201, body: { asset_id: 'id-b', duplicate: false }, retryAfter: null })
    calls[2]!.answer({ status: 201, body: { asset_id: 'id-d', duplicate: false }, retryAfter: null })
    await flush()
    expect(store.getItems().map((i) => [i.id, i.state.kind])).toEqual([
      [a!.id, 'cancelled'],
      [b!.id, 'new'],
      [c!.id, 'cancelled'],
      [d!.id, 'new'],
    ])
    expect(settled).toBe(1)
    expect(summarize(store.getItems())).toBe('4 items: 2 new, 0 duplicate, 0 failed, 2 cancelled')
  })

  it('asks before the page is left while anything is unfinished, and no longer after', async () => {
    const { send, calls } = fakeSender()
    const store = createUploadStore(send, { target: window })
    const leave = () => {
      const event = new Event('beforeunload', { cancelable: true })
      window.dispatchEvent(event)
      return event.defaultPrevented
    }
    expect(leave()).toBe(false)
    store.addFiles([png('a.png')], batch)
    expect(leave()).toBe(true)
    await flush()
    calls[0]!.answer({ status: 201, body: { asset_id: 'id-a', duplicate: false }, retryAfter: null })
    await flush()
    expect(leave()).toBe(false)
  })

  it('loads the lists and the catalogue again once for a batch of 40 files, and once more for the next drop', async () => {
    const { calls, store, invalidated, wrapper } = storeWithQueryClient()
    const { result } = renderHook(() => useUploads('user-1', store), { wrapper })
    act(() => result.current.addFiles(Array.from({ length: 40 }, (_, n) => png(`${n}.png`)), META))
    for (let n = 0; n < 40; n++) {
      await flush()
      calls[n]!.answer({ status: 201, body: { asset_id: `id-${n}`, duplicate: false }, retryAfter: null })
      if (n < 39) expect(invalidated).not.toHaveBeenCalled()
    }
    await flush()
    expect(invalidated.mock.calls.map(([filters]) => filters?.queryKey)).toEqual([['assets'], ['collections'], ['catalog'], ['organization']])

    act(() => result.current.addFiles([png('next.png')], META))
    await flush()
    calls[40]!.answer({ status: 201, body: { asset_id: 'id-next', duplicate: false }, retryAfter: null })
    await flush()
    expect(invalidated).toHaveBeenCalledTimes(8)
  })

  it('loads nothing again for a batch whose every file was cancelled', async () => {
    const { send, calls } = fakeSender()
    let settled = 0
    const store = createUploadStore(send, { target: null })
    store.addFiles(['a.png', 'b.png', 'c.png'].map(png), { ...batch, onSettled: () => settled++ })
    await flush()
    for (const item of store.getItems()) store.cancel(item.id)
    // The two requests being sent end as an aborted XHR does; the queued one is never sent.
    for (const call of calls) call.answer({ status: 0, body: null, retryAfter: null })
    await flush()
    expect(calls).toHaveLength(2)
    expect(store.getItems().every((item) => item.state.kind === 'cancelled')).toBe(true)
    expect(settled).toBe(0)
  })

  it('outlives the screen: rows and their uploads carry on after it unmounts, and are there when it comes back', async () => {
    const { calls, store, invalidated, wrapper } = storeWithQueryClient()

    const first = renderHook(() => useUploads('user-1', store), { wrapper })
    act(() => first.result.current.addFiles([png('a.png')], META))
    first.unmount()
    await flush()
    calls[0]!.answer({ status: 201, body: { asset_id: 'id-a', duplicate: false }, retryAfter: null })
    await flush()
    // What assets feed is refreshed even though no screen shows the queue.
    expect(invalidated.mock.calls.map(([filters]) => filters?.queryKey)).toEqual([['assets'], ['collections'], ['catalog'], ['organization']])

    const again = renderHook(() => useUploads('user-1', store), { wrapper })
    expect(again.result.current.items.map((i) => [i.title, i.state])).toEqual([['a', { kind: 'new', assetId: 'id-a' }]])
    again.unmount()

    // Another user signing in on this tab does not see them.
    const other = renderHook(() => useUploads('user-2', store), { wrapper })
    expect(other.result.current.items).toEqual([])
  })
})
