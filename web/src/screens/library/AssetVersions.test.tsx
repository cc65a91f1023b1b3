import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { v1 } from '../../api/client'
import { ToastProvider } from '../../ui/toast'
import type { PushAnswer } from '../upload/queue'
import { UploadStatus, UploadVersionButton, VersionDropTarget, VersionHistory } from './AssetVersions'
import type { Asset } from './queries'
import { useVersionUpload, versionOutcome, type AssetVersion } from './versions'

const send = vi.hoisted(() => ({ sendPush: vi.fn() }))
vi.mock('../upload/send', () => send)

afterEach(() => {
  vi.restoreAllMocks()
  send.sendPush.mockReset()
})

const asset = { id: 'a1', title: 'Logo', version: 3, mime_type: 'image/png' } as Asset

const version = (n: number, fields: Partial<AssetVersion> = {}): AssetVersion => ({
  version: n,
  sha256: String(n).repeat(64),
  byte_size: 2048 * n,
  width: 100 * n,
  height: 50 * n,
  mime_type: 'image/png',
  created_at: new Date(Date.now() - (4 - n) * 3_600_000).toISOString(),
  created_by: { kind: 'user', name: 'ana@acme.test' },
  original_url: `http://localhost/files/a1/v${n}/original`,
  thumbnail_url: `http://localhost/files/a1/v${n}/thumbnail`,
  ...fields,
})

function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>
  )
}

const answer = (status: number, body: unknown = null): PushAnswer => ({ status, body, retryAfter: null })

describe('what an upload of a new version came to', () => {
  const path = '/api/v1/assets/a1/versions'
  it('reads a new version, the current bytes again, and another asset’s bytes with its id', () => {
    expect(versionOutcome(answer(201, { asset_id: 'a1', version: 4, duplicate: false }), path)).toEqual({ kind: 'new', version: 4 })
    expect(versionOutcome(answer(200, { asset_id: 'a1', version: 3, duplicate: true }), path)).toEqual({ kind: 'duplicate', version: 3 })
    const elsewhere = versionOutcome(answer(409, { code: 'content_belongs_to_other_asset', detail: 'These bytes are another asset’s.', asset_id: 'b2' }), path)
    expect(elsewhere).toEqual({ kind: 'elsewhere', assetId: 'b2', detail: 'These bytes are another asset’s.' })
  })

  it('says why a file was refused, and names the formats for one that is not an image', () => {
    expect(versionOutcome(answer(413, { code: 'payload_too_large', detail: 'The file is over 25 MB.' }), path)).toEqual({ kind: 'failed', detail: 'The file is over 25 MB.' })
    const refused = versionOutcome(answer(422, { code: 'not_an_image', detail: 'This is not an image.' }), path)
    expect(refused.kind === 'failed' && refused.detail).toContain('Accepted formats: JPEG')
    expect(versionOutcome(answer(0), path)).toEqual({ kind: 'failed', detail: 'The server cannot be reached. Check your connection.' })
  })
})

/** The asset page's upload parts, as it wires them. */
function Uploader() {
  const upload = useVersionUpload('a1')
  return (
    <>
      <UploadVersionButton onFile={upload.upload} busy={upload.state.kind === 'sending'} />
      <UploadStatus state={upload.state} onCancel={upload.cancel} onDismiss={upload.dismiss} />
      <VersionDropTarget nextVersion={4} onFile={upload.upload} onRefused={upload.refuse}>
        <div data-testid="picture" />
      </VersionDropTarget>
    </>
  )
}

const png = (name: string) => new File([new Uint8Array([137, 80, 78, 71])], name, { type: 'image/png' })
const uploadStatus = () => document.querySelector<HTMLElement>('.version-status')
const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!

describe('uploading a new version', () => {
  it('shows its progress, then a 409 with a link to the asset that has these bytes', async () => {
    let finish: (answer: PushAnswer) => void = () => undefined
    send.sendPush.mockImplementation((_request: unknown, onProgress: (fraction: number) => void) => {
      onProgress(0.4)
      return new Promise((resolve) => (finish = resolve))
    })
    render(<Uploader />, { wrapper: Providers })
    fireEvent.change(fileInput(), { target: { files: [png('logo-v2.png')] } })
    await waitFor(() => expect(uploadStatus()?.textContent).toContain('Uploading logo-v2.png as a new version… 40%'))
    expect(uploadStatus()!.getAttribute('role')).toBe('status')
    expect((screen.getByRole('button', { name: 'Upload new version' }) as HTMLButtonElement).disabled).toBe(true)
    const [request, , , path] = send.sendPush.mock.calls[0]!
    expect(path).toBe('/api/v1/assets/a1/versions')
    expect((request.body as FormData).get('file')).toBeInstanceOf(File)

    await act(async () => finish(answer(409, { code: 'content_belongs_to_other_asset', detail: 'This image is already another asset.', asset_id: 'b2' })))
    const alert = uploadStatus()!
    expect(alert.getAttribute('role')).toBe('alert')
    expect(alert.textContent).toContain('logo-v2.png was not uploaded. This image is already another asset.')
    expect(within(alert).getByRole('link', { name: 'Open the asset that has this image' }).getAttribute('href')).toBe('/assets/b2')
  })

  it('takes a file dropped on the picture, and refuses several at once', async () => {
    send.sendPush.mockResolvedValue(answer(200, { asset_id: 'a1', version: 3, duplicate: true }))
    render(<Uploader />, { wrapper: Providers })
    const picture = screen.getByTestId('picture').parentElement!
    fireEvent.dragEnter(picture, { dataTransfer: { types: ['Files'], files: [] } })
    expect(screen.getByText('Drop to upload as version 4')).toBeTruthy()
    fireEvent.drop(picture, { dataTransfer: { types: ['Files'], files: [png('a.png'), png('b.png')] } })
    expect(uploadStatus()!.textContent).toBe('Drop one image: a new version is a single file. ×')
    expect(send.sendPush).not.toHaveBeenCalled()

    fireEvent.drop(picture, { dataTransfer: { types: ['Files'], files: [png('same.png')] } })
    await waitFor(() => expect(uploadStatus()?.textContent).toContain('same.png is the current version already (version 3): nothing changed.'))
  })
})

describe('the history', () => {
  it('lists the versions newest first, marks the current one, and restores another after confirming', async () => {
    const versions = [version(3), version(2, { created_by: { kind: 'key', name: 'Figma sync' } }), version(1)]
    vi.spyOn(v1, 'GET').mockResolvedValue({ data: { data: versions }, response: new Response(null, { status: 200 }) } as never)
    const post = vi.spyOn(v1, 'POST').mockResolvedValue({ data: { asset_id: 'a1', version: 4 }, response: new Response(null, { status: 201 }) } as never)
    render(<VersionHistory asset={asset} me={{ name: '', email: 'ana@acme.test' }} />, { wrapper: Providers })
    const list = await screen.findByRole('list', { name: 'Versions, newest first' })
    const items = within(list).getAllByRole('listitem')
    expect(items.map((item) => item.querySelector('strong')!.textContent)).toEqual(['Version 3', 'Version 2', 'Version 1'])
    expect(items[0]!.getAttribute('aria-current')).toBe('true')
    expect(within(items[0]!).getByText('Current')).toBeTruthy()
    expect(within(items[0]!).queryByRole('button', { name: /Restore/ })).toBeNull()
    expect(items[0]!.textContent).toContain('by you')
    expect(items[1]!.textContent).toContain('by the key “Figma sync”')
    expect(items[1]!.textContent).toContain('200 × 100 · 4.0 KB · PNG')
    const download = within(items[2]!).getByRole('link', { name: 'Download version 1' })
    expect(download.getAttribute('download')).toBe('Logo v1.png')
    expect(download.getAttribute('href')).toContain('/files/a1/v1/original?download=')

    fireEvent.click(within(items[2]!).getByRole('button', { name: 'Restore version 1' }))
    const dialog = screen.getByRole('dialog', { name: 'Restore version 1?' })
    expect(dialog.textContent).toContain('A copy of version 1 becomes version 4, the current one.')
    expect(post).not.toHaveBeenCalled()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Restore this version' }))
    expect(await screen.findByText('Restored version 1 as version 4.')).toBeTruthy()
    expect(post).toHaveBeenCalledWith('/api/v1/assets/{id}/versions/{version}/restore', { params: { path: { id: 'a1', version: 1 } } })
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })
})
