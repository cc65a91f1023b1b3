import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { seedOrganization, type Seeded } from '../support/app.js'
import { pushImage } from '../support/fixtures.js'
import { solid } from '../support/images.js'
import { expectNoSidewaysScroll } from './narrow.js'
import { checkScreen, signIn, startE2E, type E2E } from './support.js'

/**
 * The trash and the versions, as a person meets them: a delete undone from its note, the Trash screen's
 * restore and delete forever, and a new version uploaded, listed and an older one restored.
 */
let e2e: E2E
beforeAll(async () => {
  e2e = await startE2E({ RATE_LIMIT_EXPENSIVE: '1000', RATE_LIMIT_SIGN_IN: '100' })
})
afterEach(() => e2e.closeContexts())
afterAll(async () => {
  await e2e?.close()
})

const png = (colour: string) => solid(120, 80, colour).png().toBuffer()

async function signedIn(email: string, password: string): Promise<Page> {
  const page = await (await e2e.context()).newPage()
  await signIn(page, email, password)
  return page
}

const card = (page: Page, title: string) => page.getByRole('article', { name: title, exact: true })
const heading = (page: Page, title: string) => page.getByRole('heading', { name: title, level: 1 })
const visible = (locator: { isVisible(): Promise<boolean> }) => expect.poll(() => locator.isVisible()).toBe(true)

async function get(org: Seeded, url: string) {
  return e2e.t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${org.readKey}` } })
}

describe('the trash', () => {
  it('undoes a delete from its note, counts the trash in the header, and restores or deletes forever from the Trash screen', async () => {
    const org = await seedOrganization(e2e.t.app, 'Trash Co')
    const logo = await pushImage(e2e.t.app, org.writeKey, { title: 'Logo' }, await png('#1c7ed6'))
    const banner = await pushImage(e2e.t.app, org.writeKey, { title: 'Banner' }, await png('#f59f00'))
    const icon = await pushImage(e2e.t.app, org.writeKey, { title: 'Icon' }, await png('#2f9e44'))
    const page = await signedIn(org.owner.email, org.owner.password)

    // From the asset page: straight to the trash, back to the library, and the note's Undo brings it back.
    await card(page, 'Logo').getByRole('link', { name: 'Logo' }).click()
    await visible(heading(page, 'Logo'))
    await page.getByRole('button', { name: 'Move to trash' }).click()
    await visible(page.getByText('Moved “Logo” to the trash.'))
    // A note with Undo goes after 10 s unless it holds the focus; the checks below take longer than that
    // on a slow machine, so the focus waits on its button, as a keyboard user's would.
    await page.getByRole('button', { name: 'Undo' }).focus()
    await visible(heading(page, 'Library'))
    await expect.poll(() => card(page, 'Logo').count()).toBe(0)
    await visible(page.getByRole('link', { name: '1 asset in the trash' }))
    expect((await get(org, `/api/v1/assets/${logo.id}`)).statusCode).toBe(404)
    await checkScreen(page, 'library-after-delete')
    await page.getByRole('button', { name: 'Undo' }).click()
    await visible(heading(page, 'Logo'))
    expect(new URL(page.url()).pathname).toBe(`/assets/${logo.id}`)
    await visible(page.getByText('Restored “Logo”.'))
    expect((await get(org, `/api/v1/assets/${logo.id}`)).statusCode).toBe(200)

    // From the library's selection: two at once, and the header's count leads to the Trash screen.
    await page.getByRole('link', { name: 'Library', exact: true }).click()
    await expect.poll(() => page.getByRole('link', { name: /in the trash/ }).count()).toBe(0)
    await card(page, 'Banner').hover()
    await page.getByRole('checkbox', { name: 'Select Banner' }).check()
    await page.getByRole('checkbox', { name: 'Select Icon' }).check()
    await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Move to trash' }).click()
    await visible(page.getByText('Moved 2 assets to the trash.'))
    // The plan's usage counts them, and says where they are.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Organization' }).click()
    await visible(page.getByText(/Of these, 2 assets are in the Trash/))
    await page.getByRole('main').getByRole('link', { name: 'Trash', exact: true }).click()
    await visible(heading(page, 'Trash'))
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Library' }).click()
    await page.getByRole('link', { name: '2 assets in the trash' }).click()
    await visible(heading(page, 'Trash'))
    await visible(card(page, 'Banner'))
    await visible(card(page, 'Icon').getByText(/^Deleted (just now|.* ago) by you$/))
    await visible(card(page, 'Icon').getByText(/^Deleted forever in \d+ days$/))
    await checkScreen(page, 'trash')
    await expectNoSidewaysScroll(page)

    await card(page, 'Banner').getByRole('button', { name: 'Restore' }).click()
    await visible(page.getByText('Restored “Banner”.'))
    await expect.poll(() => card(page, 'Banner').count()).toBe(0)
    expect((await get(org, `/api/v1/assets/${banner.id}`)).statusCode).toBe(200)

    await card(page, 'Icon').getByRole('button', { name: 'Delete forever' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete forever?' })
    await visible(dialog)
    await checkScreen(page, 'dialog-delete-forever')
    await dialog.getByRole('button', { name: 'Delete forever' }).click()
    await visible(page.getByText('Deleted “Icon” forever.'))
    await visible(page.getByRole('region', { name: 'The trash is empty' }))
    expect((await get(org, `/api/v1/assets/${icon.id}`)).statusCode).toBe(404)
    const trash = await get(org, '/api/v1/trash')
    expect(trash.json<{ data: unknown[] }>().data).toEqual([])
    await checkScreen(page, 'trash-empty')
  })

  it('lets a member restore, and says that only owners and admins delete forever', async () => {
    const org = await seedOrganization(e2e.t.app, 'Member Co')
    const poster = await pushImage(e2e.t.app, org.writeKey, { title: 'Poster' }, await png('#e8590c'))
    const removed = await e2e.t.app.inject({ method: 'DELETE', url: `/api/v1/assets/${poster.id}`, headers: { authorization: `Bearer ${org.writeKey}` } })
    expect(removed.statusCode).toBe(204)
    const member = { email: `member-${org.org.slug}@example.com`, password: 'correct horse battery' }
    await e2e.t.app.services.orgs.addMember(org.org.id, { ...member, role: 'member' })
    const page = await signedIn(member.email, member.password)
    await visible(page.getByRole('link', { name: '1 asset in the trash' }))
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Trash' }).click()
    await visible(card(page, 'Poster'))
    expect(await page.getByRole('button', { name: 'Delete forever' }).count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Empty trash' }).isDisabled()).toBe(true)
    await visible(page.getByText('Only owners and admins can delete assets forever or empty the trash.'))
    await visible(card(page, 'Poster').getByText(/^Deleted (just now|.* ago) by the key “assets:write”$/))
    // Its thumbnail still shows in the trash, though it was never seen live in this browser.
    await expect.poll(() => card(page, 'Poster').locator('.asset-thumb').getAttribute('data-transparency')).toBe('opaque')
    await checkScreen(page, 'trash-member')
    await card(page, 'Poster').getByRole('button', { name: 'Restore' }).click()
    await visible(page.getByText('Restored “Poster”.'))
    expect((await get(org, `/api/v1/assets/${poster.id}`)).statusCode).toBe(200)
  })
})

describe('versions', () => {
  it('uploads a new version, lists it, restores the first as a third, and names the asset that already has a file', async () => {
    const org = await seedOrganization(e2e.t.app, 'Versions Co')
    const first = await png('#1c7ed6')
    const logo = await pushImage(e2e.t.app, org.writeKey, { title: 'Logo' }, first)
    const other = await pushImage(e2e.t.app, org.writeKey, { title: 'Other' }, await png('#c92a2a'))
    const page = await signedIn(org.owner.email, org.owner.password)
    await page.goto(`/assets/${logo.id}`)
    await visible(heading(page, 'Logo'))
    const versions = page.getByRole('list', { name: 'Versions, newest first' })
    await expect.poll(() => versions.getByRole('listitem').count()).toBe(1)
    const picture = page.locator('.detail-image img')
    const before = await picture.getAttribute('src')

    await page.locator('input[type="file"]').setInputFiles({ name: 'logo-v2.png', mimeType: 'image/png', buffer: await png('#7048e8') })
    await visible(page.getByText('Uploaded version 2.'))
    await expect.poll(() => versions.getByRole('listitem').count()).toBe(2)
    await visible(versions.getByRole('listitem').first().getByText('Current'))
    expect(await versions.getByRole('listitem').first().locator('strong').textContent()).toBe('Version 2')
    // The picture is the new version's: its URL changed with the version.
    await expect.poll(() => picture.getAttribute('src')).not.toBe(before)
    await expect.poll(() => picture.evaluate((image) => (image as unknown as { complete: boolean; naturalWidth: number }).naturalWidth > 0)).toBe(true)

    // A file another asset has: refused, with the way to that asset.
    await page.locator('input[type="file"]').setInputFiles({ name: 'other.png', mimeType: 'image/png', buffer: other.image })
    const refused = page.locator('.version-status[role="alert"]')
    await visible(refused)
    expect(await refused.getByRole('link', { name: 'Open the asset that has this image' }).getAttribute('href')).toBe(`/assets/${other.id}`)
    await refused.getByRole('button', { name: 'Dismiss' }).click()

    // The current file dropped on the picture: nothing changes, and it says so.
    const current = await png('#7048e8')
    await page.evaluate(`(() => {
      const transfer = new DataTransfer()
      transfer.items.add(new File([new Uint8Array(${JSON.stringify([...current])})], 'again.png', { type: 'image/png' }))
      const target = document.querySelector('.version-drop')
      for (const type of ['dragenter', 'drop']) target.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }))
    })()`)
    await visible(page.getByText(/again\.png is the current version already \(version 2\): nothing changed\./))
    await checkScreen(page, 'asset-versions')
    await expectNoSidewaysScroll(page)

    await versions.getByRole('button', { name: 'Restore version 1' }).click()
    const dialog = page.getByRole('dialog', { name: 'Restore version 1?' })
    await visible(dialog)
    await checkScreen(page, 'dialog-restore-version')
    await dialog.getByRole('button', { name: 'Restore this version' }).click()
    await visible(page.getByText('Restored version 1 as version 3.'))
    await expect.poll(() => versions.getByRole('listitem').count()).toBe(3)
    expect(await versions.getByRole('listitem').first().locator('strong').textContent()).toBe('Version 3')
    const record = (await get(org, `/api/v1/assets/${logo.id}`)).json<{ version: number; sha256: string }>()
    const history = (await get(org, `/api/v1/assets/${logo.id}/versions`)).json<{ data: Array<{ version: number; sha256: string }> }>()
    expect(record.version).toBe(3)
    expect(history.data.map((v) => v.version)).toEqual([3, 2, 1])
    expect(record.sha256).toBe(history.data[2]!.sha256)

    // Each version's original downloads under the asset's title and its number.
    const download = page.waitForEvent('download')
    await versions.getByRole('link', { name: 'Download version 2' }).click()
    expect((await download).suggestedFilename()).toBe('Logo v2.png')

    // The library's card says which version the asset is at.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Library' }).click()
    await visible(card(page, 'Logo').getByTitle('Version 3'))
  })
})
