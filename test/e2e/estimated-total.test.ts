import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pushImage } from '../support/fixtures.js'
import { checkScreen, signIn, startE2E, type E2E } from './support.js'

let e2e: E2E

beforeAll(async () => {
  // Full-text totals are exact up to 2 here, instead of 1,000: three matches make an estimate.
  e2e = await startE2E({ LIST_EXACT_TOTAL_UP_TO: '2' })
  for (const title of ['Retina banner', 'Retina poster', 'Retina icon', 'Plain logo']) await pushImage(e2e.t.app, e2e.acme.writeKey, { title })
})
afterAll(async () => {
  await e2e?.close()
})

describe('the library\u2019s count', () => {
  it('says "2+" when a full-text filter\u2019s total is an estimate past its count of 2, and counts exactly otherwise', async () => {
    const page = await (await e2e.context()).newPage()
    await signIn(page, e2e.acme.owner.email, e2e.acme.owner.password)
    await page.goto('/?q=retina')
    await expect.poll(() => page.getByRole('article').count()).toBe(3)
    await expect.poll(() => page.getByText('2+ assets', { exact: true }).count()).toBe(1)
    await checkScreen(page, 'library-estimated-total')
    await page.goto('/')
    await expect.poll(() => page.getByText('4 assets', { exact: true }).count()).toBe(1)
  })
})
