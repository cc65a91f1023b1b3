import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { appApi, type AppData } from '../../api/client'
import { ToastProvider } from '../../ui/toast'
import { ProcessingSection } from './ProcessingSection'

vi.mock('../../session', () => ({ useOrg: () => 'acme' }))

afterEach(() => vi.restoreAllMocks())

type Queues = AppData<'/app/api/orgs/{org}/jobs', 'get'>

const QUEUES: Queues = {
  data: [
    { name: 'thumbnails', pending: 4, running: 1, failed: 2, oldest_pending_at: '2026-03-01T12:00:00.000Z', unavailable_reason: null },
    { name: 'embeddings', pending: 0, running: 0, failed: 0, oldest_pending_at: null, unavailable_reason: null },
  ],
}

const answer = (data: unknown) => ({ data, response: new Response(null, { status: 200 }) })

/** The app API as the panel calls it: the queues `queues()` gives at the time. */
function serve(queues: () => Queues) {
  vi.spyOn(appApi, 'GET').mockImplementation((async () => answer(queues())) as unknown as typeof appApi.GET)
}

function renderPanel() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastProvider>
        <ProcessingSection />
      </ToastProvider>
    </QueryClientProvider>,
  )
}

describe('the Processing panel', () => {
  it('shows each queue\u2019s counts, and Retry failed queues that queue again and shows the new counts', async () => {
    // As the server does: the retry makes the failed jobs pending again.
    let queues = QUEUES
    serve(() => queues)
    const post = vi.spyOn(appApi, 'POST').mockImplementation((async () => {
      queues = { data: [{ ...QUEUES.data[0]!, pending: 6, failed: 0 }, QUEUES.data[1]!] }
      return answer({ name: 'thumbnails', queued: 2 })
    }) as unknown as typeof appApi.POST)
    renderPanel()
    const thumbnails = () => screen.getByRole('row', { name: /^Thumbnails/ })
    await screen.findByRole('row', { name: /^Thumbnails/ })
    expect(within(thumbnails()).getAllByRole('cell').map((cell) => cell.textContent).slice(0, 3)).toEqual(['4', '1', '2'])
    expect(within(screen.getByRole('row', { name: /^Search embeddings/ })).getAllByRole('cell')[3]!.textContent).toBe('—')

    fireEvent.click(screen.getByRole('button', { name: 'Retry failed thumbnails' }))
    expect(await screen.findByText('2 jobs of Thumbnails queued again.')).toBeTruthy()
    expect(post).toHaveBeenCalledWith('/app/api/orgs/{org}/jobs/{name}/retry', { params: { path: { org: 'acme', name: 'thumbnails' } } })
    await waitFor(() => expect(within(thumbnails()).getAllByRole('cell').map((cell) => cell.textContent).slice(0, 3)).toEqual(['6', '1', '0']))
  })

  it('says the embeddings are not made on a server without a provider, instead of offering their retry', async () => {
    serve(() => ({ data: [QUEUES.data[0]!, { ...QUEUES.data[1]!, pending: 4, unavailable_reason: 'no_provider' }] }))
    renderPanel()
    const embeddings = await screen.findByRole('row', { name: /^Search embeddings/ })
    await within(embeddings).findByText('Not configured on this server')
    expect(within(embeddings).queryByRole('button')).toBeNull()
    expect(screen.getByRole('button', { name: 'Retry failed thumbnails' })).toBeTruthy()
    expect(screen.getByText(/Search embeddings are not made on this server/).textContent).toContain('EMBEDDING_BASE_URL')
    expect(within(embeddings).getAllByRole('cell')[0]!.textContent).toBe('4')
  })

  it('names the picture embeddings and the setting that makes them, when the server has no image model', async () => {
    serve(() => ({ data: [QUEUES.data[0]!, { name: 'image_embeddings', pending: 2, running: 0, failed: 0, oldest_pending_at: null, unavailable_reason: 'no_provider' }] }))
    renderPanel()
    const pictures = await screen.findByRole('row', { name: /^Picture embeddings/ })
    await within(pictures).findByText('Not configured on this server')
    const advice = screen.getByText(/Picture embeddings are not made on this server/).textContent
    expect(advice).toContain('IMAGE_EMBEDDING_PROVIDER')
    expect(advice).not.toContain('EMBEDDING_BASE_URL')
  })
})
