import type { Locator, Page } from 'playwright-core'
import { expect } from 'vitest'

const NARROW = { width: 375, height: 812 }

/** How wide the page is laid out: wider than the screen, it scrolls sideways. */
const pageWidth = async (page: Page) => (await page.evaluate('document.documentElement.scrollWidth')) as number

/** Runs `check` with the page 375 px wide, then gives the page its width back. */
async function atNarrowWidth(page: Page, check: () => Promise<void>): Promise<void> {
  const original = page.viewportSize()
  await page.setViewportSize(NARROW)
  try {
    await check()
  } finally {
    if (original) await page.setViewportSize(original)
  }
}

/** Nothing on the page is wider than a 375 px screen: it never scrolls sideways. */
export const expectNoSidewaysScroll = (page: Page) =>
  atNarrowWidth(page, () => expect.poll(() => pageWidth(page)).toBeLessThanOrEqual(NARROW.width))

/** `target` is shown whole, within the screen's width, as the page is (nothing scrolled sideways to reach it). */
async function expectWithinWidth(target: Locator): Promise<void> {
  expect(await target.isVisible()).toBe(true)
  const box = (await target.boundingBox())!
  expect(box.x).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width).toBeLessThanOrEqual(NARROW.width)
}

/** At 375 px each of `targets` is visible whole, without scrolling sideways. */
export const expectShownWhole = (page: Page, targets: Locator[]) =>
  atNarrowWidth(page, async () => {
    for (const target of targets) await expectWithinWidth(target)
  })

/** Each cell of `row` is written after its column's name, but for an actions column, whose name is for screen readers only. */
async function expectCellsLabelled(table: Locator, row: Locator): Promise<void> {
  const headers = table.locator('thead th')
  const cells = row.locator('td')
  let labelled = 0
  for (let index = 0; index < (await cells.count()); index++) {
    const header = headers.nth(index)
    if ((await header.locator('.visually-hidden').count()) > 0) continue
    const shown = await cells.nth(index).evaluate((cell) => cell.ownerDocument.defaultView!.getComputedStyle(cell, '::before').content)
    expect(shown).toContain(`"${(await header.textContent())!.trim()}"`)
    labelled++
  }
  expect(labelled).toBeGreaterThan(0)
}

/**
 * At 375 px the table is a stack of cards: the page does not scroll sideways, nor does the table in
 * its box, each cell of `row` shows its column's name (the header cell's text), and `action` (a
 * button or link of that row) is visible without scrolling sideways.
 */
export async function expectStackedCards(page: Page, table: Locator, row: Locator, action: Locator): Promise<void> {
  await atNarrowWidth(page, async () => {
    await expect.poll(() => pageWidth(page)).toBeLessThanOrEqual(NARROW.width)
    expect(await table.evaluate((element) => element.parentElement!.scrollWidth <= element.parentElement!.clientWidth)).toBe(true)
    await expectCellsLabelled(table, row)
    await expectWithinWidth(action)
  })
}
