import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emit } from '../../src/platform/events/outbox.js'
import { seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'

let t: TestApp
let acme: Seeded

beforeAll(async () => {
  t = await startTestApp()
  acme = await seedOrganization(t.app)
})
afterAll(() => t.close())

const events = () =>
  t.database.handle.db.selectFrom('outbox_events').selectAll().where('organization_id', '=', acme.org.id).orderBy('id').execute()

describe('emit', () => {
  it('records the event with the transaction that commits', async () => {
    const id = await t.database.handle.db.transaction().execute((tx) => emit(tx, acme.org.id, 'ping', { subscription_id: 'sub_1' }))
    const rows = await events()
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ id, event: 'ping', payload: { subscription_id: 'sub_1' } })
    expect(rows[0]!.created_at).toBeInstanceOf(Date)
  })

  it('leaves nothing behind when the transaction rolls back', async () => {
    const before = (await events()).length
    await expect(
      t.database.handle.db.transaction().execute(async (tx) => {
        await emit(tx, acme.org.id, 'asset.deleted', { id: 'x' })
        throw new Error('the change failed')
      }),
    ).rejects.toThrow('the change failed')
    expect(await events()).toHaveLength(before)
  })

  it('gives ids that sort by creation', async () => {
    const ids: string[] = []
    for (let i = 0; i < 3; i++) ids.push(await emit(t.database.handle.db, acme.org.id, 'ping', { n: i }))
    expect([...ids].sort()).toEqual(ids)
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })
})
