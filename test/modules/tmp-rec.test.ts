import { it } from 'vitest'
import { drainDerivations, seedOrganization, startTestApp, bearer } from '../support/app.js'
import { tinyPng } from '../../bench/support/library.js'
it('times', async () => {
  const t = await startTestApp({ env: { RATE_LIMIT_EXPENSIVE: '100000', RATE_LIMIT_CHEAP: '100000', RATE_LIMIT_STANDARD: '100000', LIST_CACHE_RECORDS: '0' } })
  const org = await seedOrganization(t.app)
  for (let i = 0; i < 500; i++) {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/assets', headers: { ...bearer(org.writeKey), 'content-type': 'application/json' }, payload: { title: `Asset ${i}`, asset_type: 'icon', tag_names: i % 2 ? ['approved', 'x'] : ['x'], image_base64: (await tinyPng(i)).toString('base64') } })
    if (res.statusCode !== 201) throw new Error(res.body)
  }
  await drainDerivations(t.app)
  for (const url of ['/api/v1/assets?limit=50', '/api/v1/assets?limit=50&tag=approved']) {
    for (let round = 0; round < 3; round++) {
      const times: number[] = []
      for (let i = 0; i < 200; i++) {
        const started = performance.now()
        const res = await t.app.inject({ method: 'GET', url, headers: bearer(org.readKey) })
        times.push(performance.now() - started)
        if (res.statusCode !== 200) throw new Error(res.body)
      }
      times.sort((a, b) => a - b)
      console.log(process.env.VARIANT, url, 'p50', times[100]!.toFixed(2), 'p95', times[190]!.toFixed(2))
    }
  }
  await t.close()
}, 600000)
