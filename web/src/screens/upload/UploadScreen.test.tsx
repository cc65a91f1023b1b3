import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { v1 } from '../../api/client'
import { UploadResults } from './UploadResults'
import { UploadScreen } from './UploadScreen'
import { uploads, type UploadItem } from './uploadStore'

vi.mock('../../session', () => ({
  useOrg: () => 'acme',
  useSession: () => ({ user: { id: 'u1', name: 'Me', email: 'me@acme.test' }, organization: { slug: 'acme', name: 'Acme' }, organizations: [] }),
}))

const AI = 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia'
const CAPTURE = 'http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture'
const xmp = (type: string) =>
  `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/" Iptc4xmpExt:DigitalSourceType="${type}"/></rdf:RDF></x:xmpmeta>`
const image = (name: string, packet = '') => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47]), packet, new Uint8Array([0, 255])], name, { type: 'image/png' })

const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{children}</QueryClientProvider>
)

/** The pushes as the browser would send them; none gets an answer, so each row stays in progress. */
let sent: FormData[] = []

beforeEach(() => {
  sent = []
  localStorage.clear()
  vi.spyOn(v1, 'GET').mockResolvedValue({ data: { data: [], total: 0 }, response: new Response('{}') } as never)
  vi.spyOn(XMLHttpRequest.prototype, 'send').mockImplementation(function (body) {
    sent.push(body as FormData)
  })
})
afterEach(() => {
  uploads.clear()
  vi.restoreAllMocks()
})

describe('the upload of a file that says AI made it', () => {
  it('pushes it as made by AI whatever the batch says, and says why on its row; other files follow the batch', async () => {
    render(<UploadScreen />, { wrapper })
    expect((screen.getByRole('radio', { name: 'Made by a person' }) as HTMLInputElement).checked).toBe(true)
    fireEvent.change(screen.getByLabelText('Upload images'), { target: { files: [image('robot.png', xmp(AI)), image('photo.png', xmp(CAPTURE)), image('plain.png')] } })
    await waitFor(() => expect(sent).toHaveLength(2))
    expect(sent.map((form) => [form.get('title'), form.get('created_by_ai')])).toEqual([
      ['robot', 'true'],
      ['photo', 'false'],
    ])
    const rows = screen.getAllByRole('listitem')
    expect(within(rows[0]!).getByRole('note').textContent).toBe('The file says it was made by AI')
    expect(within(rows[1]!).queryByRole('note')).toBeNull()
    // The batch's own choice is unchanged for what comes next.
    expect((screen.getByRole('radio', { name: 'Made by a person' }) as HTMLInputElement).checked).toBe(true)
  })

  it('lets the person say otherwise once the asset is made', async () => {
    const patch = vi.spyOn(v1, 'PATCH').mockResolvedValue({ data: {}, response: new Response('{}') } as never)
    const item: UploadItem = {
      id: 1,
      title: 'robot',
      source: 'robot.png',
      size: 100,
      preview: null,
      owner: 'u1',
      organization: 'acme',
      declaresAi: true,
      state: { kind: 'new', assetId: 'a1' },
    }
    render(<UploadResults items={[item]} onCancel={() => undefined} onClearFinished={() => undefined} />, { wrapper })
    expect(screen.getByRole('note').textContent).toContain('The file says it was made by AI')
    fireEvent.click(screen.getByRole('button', { name: 'Mark robot as made by a person' }))
    expect(await screen.findByText('Marked as made by a person')).toBeTruthy()
    expect(patch).toHaveBeenCalledWith('/api/v1/assets/{id}', { params: { path: { id: 'a1' } }, body: { created_by_ai: false } })
  })
})
