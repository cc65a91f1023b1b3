import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pushImage } from '../support/fixtures.js'
import { solid } from '../support/images.js'
import { checkScreen, signIn, startE2E, type E2E } from './support.js'

let e2e: E2E
beforeAll(async () => {
  e2e = await startE2E()
  // Three red assets and two blue ones, pushed with the write key as an automation would.
  const seeds = [
    ['Red poster', '#e03131', 'red'],
    ['Red banner', '#c92a2a', 'red'],
    ['Red icon', '#fa5252', 'red'],
    ['Blue poster', '#1971c2', 'blue'],
    ['Blue banner', '#4dabf7', 'blue'],
  ] as const
  for (const [title, colour, tag] of seeds) {
    await pushImage(e2e.t.app, e2e.acme.writeKey, { title, tag_names: [tag], created_by_ai: tag === 'red' }, await solid(80, 60, colour).png().toBuffer())
  }
})
afterAll(() => e2e.close())

describe('collections', () => {
  it('makes a smart collection with a live count, shares it, opens the public link, and unshares it', async () => {
    const context = await e2e.context()
    const page = await context.newPage()
    await signIn(page, e2e.acme.owner.email, e2e.acme.owner.password)
    await page.goto('/collections')
    await expect.poll(() => page.getByRole('heading', { name: 'No collections yet' }).isVisible()).toBe(true)

    await page.getByRole('button', { name: 'New collection', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: 'New collection' })
    await dialog.getByLabel('Name').fill('Red things')
    await dialog.getByRole('radio', { name: /^Smart/ }).check()
    await dialog.getByLabel('Tag').fill('red')
    await dialog.getByLabel('Tag').press('Enter')
    await expect.poll(() => dialog.getByRole('status').textContent()).toBe('3 assets match')
    await dialog.getByRole('button', { name: 'Create collection' }).click()

    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Red things')
    const query = page.getByRole('region', { name: 'Query' })
    await expect.poll(() => query.getByRole('status').textContent()).toBe('3 assets match')
    await expect.poll(() => page.getByRole('article').count()).toBe(3)
    await expect.poll(() => page.getByRole('article', { name: 'Red icon' }).isVisible()).toBe(true)
    // Editing the query counts again before saving.
    await query.getByLabel('Tag').fill('blue')
    await query.getByLabel('Tag').press('Enter')
    await expect.poll(() => query.getByRole('status').textContent()).toBe('2 assets match')
    await query.getByRole('button', { name: 'Revert' }).click()
    await expect.poll(() => query.getByRole('status').textContent()).toBe('3 assets match')
    await checkScreen(page, 'collection-smart')

    await page.getByRole('button', { name: 'Share', exact: true }).click()
    const link = page.getByLabel('Public link', { exact: true })
    await expect.poll(() => link.isVisible()).toBe(true)
    const shareUrl = await link.inputValue()
    expect(shareUrl).toMatch(/\/s\/.+/)
    expect(await page.getByRole('link', { name: 'Open' }).getAttribute('href')).toBe(shareUrl)
    // The link field took the focus from the Share button it replaced.
    await expect.poll(() => link.evaluate((field) => field === field.ownerDocument.activeElement)).toBe(true)
    await checkScreen(page, 'collection-shared')

    // Someone without a session opens the link.
    const stranger = await e2e.context()
    const publicPage = await stranger.newPage()
    const answer = await publicPage.goto(shareUrl)
    expect(answer?.status()).toBe(200)
    await expect.poll(() => publicPage.getByRole('img', { name: 'Red poster' }).isVisible()).toBe(true)
    expect(await publicPage.getByRole('img', { name: 'Blue poster' }).count()).toBe(0)
    await stranger.close()

    // The link stays: an owner sees it again when coming back, with "Make a new link" beside Unshare.
    await page.reload()
    await expect.poll(() => link.inputValue()).toBe(shareUrl)
    await expect.poll(() => page.getByRole('button', { name: 'Make a new link' }).isVisible()).toBe(true)

    await page.getByRole('button', { name: 'Unshare' }).click()
    await expect.poll(() => page.getByRole('button', { name: 'Share', exact: true }).isVisible()).toBe(true)
    expect((await page.request.get(shareUrl)).status()).toBe(404)

    await page.getByRole('link', { name: 'All collections' }).click()
    const row = page.getByRole('row', { name: /Red things/ })
    await expect.poll(() => row.getByRole('cell').nth(2).textContent()).toBe('3')
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('Smart')
    await checkScreen(page, 'collections')
    await context.close()
  })

  it('makes a manual collection, adds two assets and removes one', async () => {
    const context = await e2e.context()
    const page = await context.newPage()
    await signIn(page, e2e.acme.owner.email, e2e.acme.owner.password)
    await page.goto('/collections')
    await page.getByRole('button', { name: 'New collection', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: 'New collection' })
    // The dialog opens on its first field.
    await expect.poll(() => dialog.getByLabel('Name').evaluate((field) => field === field.ownerDocument.activeElement)).toBe(true)
    await dialog.getByLabel('Name').fill('Hand-off picks')
    await dialog.getByRole('button', { name: 'Create collection' }).click()
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Hand-off picks')
    await expect.poll(() => page.getByRole('heading', { name: 'This collection is empty' }).isVisible()).toBe(true)

    await page.getByRole('button', { name: 'Add assets' }).first().click()
    const picker = page.getByRole('dialog', { name: 'Add assets to Hand-off picks' })
    await picker.getByRole('checkbox', { name: 'Blue banner' }).check()
    await picker.getByLabel('Filter assets').fill('poster')
    await expect.poll(() => picker.getByRole('checkbox').count()).toBe(2)
    await picker.getByRole('checkbox', { name: 'Red poster' }).check()
    await picker.getByRole('button', { name: 'Add 2 assets' }).click()

    await expect.poll(() => page.getByRole('article').count()).toBe(2)
    await expect.poll(() => page.getByRole('article', { name: 'Blue banner' }).isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Remove Blue banner from the collection' }).click()
    await expect.poll(() => page.getByRole('article').count()).toBe(1)
    await expect.poll(() => page.getByRole('article', { name: 'Red poster' }).isVisible()).toBe(true)
    await expect.poll(() => page.getByText('1 asset', { exact: true }).isVisible()).toBe(true)
    await checkScreen(page, 'collection-manual')

    // A failed load says so and offers a retry, instead of an empty collection.
    const collectionUrl = new URL(page.url()).pathname
    const oneCollection = (url: URL) => /^\/api\/v1\/collections\/[^/]+$/.test(url.pathname)
    await page.route(oneCollection, (route) =>
      route.fulfill({ status: 429, contentType: 'application/problem+json', body: JSON.stringify({ title: 'Too Many Requests', status: 429, code: 'rate_limited', detail: 'Too many requests: try again in 20 seconds.' }) }),
    )
    await page.reload()
    const failed = page.getByRole('alert').filter({ hasText: 'Could not load the collection' })
    await expect.poll(() => failed.textContent()).toContain('Too many requests: try again in 20 seconds.')
    expect(await page.getByRole('heading', { name: 'This collection is empty' }).count()).toBe(0)
    await page.unroute(oneCollection)
    await failed.getByRole('button', { name: 'Retry' }).click()
    await expect.poll(() => page.getByRole('article', { name: 'Red poster' }).isVisible()).toBe(true)

    // Deleting waits for the server: a double click sends one DELETE, not two.
    const deletes: string[] = []
    page.on('request', (request) => {
      if (request.method() === 'DELETE' && request.url().includes('/api/v1/collections/')) deletes.push(request.url())
    })
    await page.getByRole('button', { name: 'Delete', exact: true }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete this collection?' })
    await confirm.getByRole('button', { name: 'Delete collection' }).dblclick()
    await expect.poll(() => new URL(page.url()).pathname).toBe('/collections')
    expect(deletes).toEqual([expect.stringContaining(`/api/v1${collectionUrl}`)])
    await context.close()
  })

  it('shows each collection\u2019s cover in the list: its first asset, or a placeholder when it is empty', async () => {
    const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
      e2e.t.app.inject({ method, url, headers: { authorization: `Bearer ${e2e.acme.writeKey}` }, ...(payload && { payload }) })
    const idOf = async (title: string) => (await api('GET', `/api/v1/assets?q=${encodeURIComponent(title)}`)).json<{ data: Array<{ id: string; title: string }> }>().data.find((asset) => asset.title === title)!.id
    const shelf = (await api('POST', '/api/v1/collections', { name: 'Blue shelf' })).json<{ id: string }>()
    await api('POST', `/api/v1/collections/${shelf.id}/assets`, { asset_ids: [await idOf('Blue poster'), await idOf('Blue banner')] })
    await api('POST', '/api/v1/collections', { name: 'Empty shelf' })
    await api('POST', '/api/v1/collections', { name: 'Reds again', query: { tag: 'red' } })

    const context = await e2e.context()
    const page = await context.newPage()
    await signIn(page, e2e.acme.owner.email, e2e.acme.owner.password)
    await page.goto('/collections')
    const cover = (name: string) => page.getByRole('row', { name: new RegExp(name) }).locator('img')
    await expect.poll(() => cover('Blue shelf').getAttribute('src')).toContain(`/files/assets/${await idOf('Blue banner')}/versions/1/thumbnail?`)
    await expect.poll(() => cover('Reds again').getAttribute('src')).toContain(`/files/assets/${await idOf('Red icon')}/versions/1/thumbnail?`)
    for (const name of ['Blue shelf', 'Reds again']) {
      const loaded = () =>
        cover(name).evaluate((image) => {
          const { complete, naturalWidth } = image as unknown as { complete: boolean; naturalWidth: number }
          return complete && naturalWidth > 0
        })
      await expect.poll(loaded).toBe(true)
    }
    const empty = page.getByRole('row', { name: /Empty shelf/ })
    await expect.poll(() => empty.locator('.empty-cover svg').count()).toBe(1)
    expect(await empty.locator('img').count()).toBe(0)
    await checkScreen(page, 'collections-covers')
    await context.close()
  })
})
