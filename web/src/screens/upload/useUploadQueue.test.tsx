import { act, renderHook, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { PushAnswer } from './queue'
import { summarize, useUploadQueue, type Sender } from './useUploadQueue'

const META = { asset_type: '', client: '', product: '', tags: 'launch', created_by_ai: true, collection_name: '' }

/** A sender whose answers the test gives, one call at a time. */
function fakeSender() {
  const calls: Array<{ body: FormData | Record<string, unknown>; progress(f: number): void; answer(a: PushAnswer): void }> = []
  const send: Sender = (body, progress) => new Promise((answer) => calls.push({ body, progress, answer }))
  return { send, calls }
}

describe('the upload queue', () => {
  it('sends two files at a time, shows progress, and ends each new, duplicate or failed', async () => {
    const { send, calls } = fakeSender()
    let settled = 0
    const { result } = renderHook(() => useUploadQueue(send, { onSettled: () => settled++ }))
    const files = ['a.png', 'b.png', 'c.png'].map((name) => new File([name], name, { type: 'image/png' }))
    act(() => result.current.addFiles(files, META))

    expect(result.current.items.map((i) => i.title)).toEqual(['a', 'b', 'c'])
    await waitFor(() => expect(calls).toHaveLength(2))
    const form = calls[0]!.body as FormData
    expect(form.get('title')).toBe('a')
    expect(form.getAll('tag_names')).toEqual(['launch'])
    expect(form.get('created_by_ai')).toBe('true')
    expect((form.get('file') as File).name).toBe('a.png')

    act(() => calls[0]!.progress(0.5))
    expect(result.current.items[0]!.state).toEqual({ kind: 'sending', progress: 0.5 })
    expect(result.current.items[2]!.state).toEqual({ kind: 'queued' })

    await act(async () => calls[0]!.answer({ status: 201, body: { asset_id: 'id-a', duplicate: false }, retryAfter: null }))
    await waitFor(() => expect(calls).toHaveLength(3))
    await act(async () => calls[1]!.answer({ status: 413, body: { detail: 'The file is larger than 25 MiB.' }, retryAfter: null }))
    await act(async () => calls[2]!.answer({ status: 200, body: { asset_id: 'id-a', duplicate: true }, retryAfter: null }))

    await waitFor(() => expect(settled).toBe(3))
    expect(result.current.items.map((i) => i.state)).toEqual([
      { kind: 'new', assetId: 'id-a' },
      { kind: 'failed', detail: 'The file is larger than 25 MiB.' },
      { kind: 'duplicate', assetId: 'id-a' },
    ])
    expect(summarize(result.current.items)).toBe('3 items: 1 new, 1 duplicate, 1 failed')
    act(() => result.current.clearFinished())
    expect(result.current.items).toEqual([])
  })

  it('shows the wait of a 429 and sends the file again when it is over', async () => {
    const { send, calls } = fakeSender()
    const waits: Array<() => void> = []
    const wait = () => new Promise<void>((resolve) => waits.push(resolve))
    const { result } = renderHook(() => useUploadQueue(send, { wait }))
    act(() => result.current.addUrl('https://example.com/images/hero.png', META))
    await waitFor(() => expect(calls).toHaveLength(1))
    expect(calls[0]!.body).toEqual({ image_url: 'https://example.com/images/hero.png', title: 'hero', tag_names: ['launch'], created_by_ai: true })

    await act(async () => calls[0]!.answer({ status: 429, body: { detail: 'Too many requests.' }, retryAfter: '2' }))
    await waitFor(() => expect(result.current.items[0]!.state).toEqual({ kind: 'waiting', seconds: 2 }))
    expect(summarize(result.current.items)).toBe('1 item: 0 new, 0 duplicate, 0 failed; 1 in progress')
    await act(async () => waits.shift()!())
    await waitFor(() => expect(result.current.items[0]!.state).toEqual({ kind: 'waiting', seconds: 1 }))
    await act(async () => waits.shift()!())
    await waitFor(() => expect(calls).toHaveLength(2))
    await act(async () => calls[1]!.answer({ status: 201, body: { asset_id: 'id-h', duplicate: false }, retryAfter: null }))
    await waitFor(() => expect(result.current.items[0]!.state).toEqual({ kind: 'new', assetId: 'id-h' }))
  })
})
