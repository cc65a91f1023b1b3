import { fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { EventPicker } from './EventPicker'
import { filtersFromSearch, pickable, searchFromFilters, type PickableEvent } from './events'

describe('the delivery filters in the URL', () => {
  it('reads known values and ignores the rest', () => {
    expect(filtersFromSearch(new URLSearchParams('status=failed&event=asset.created&offset=40'))).toEqual({ status: 'failed', event: 'asset.created', offset: 40 })
    expect(filtersFromSearch(new URLSearchParams('status=lost&event=nope&offset=-3'))).toEqual({ status: undefined, event: undefined, offset: 0 })
    expect(filtersFromSearch(new URLSearchParams('offset=abc'))).toEqual({ status: undefined, event: undefined, offset: 0 })
  })

  it('writes only what differs from the defaults, and round-trips', () => {
    expect(searchFromFilters({ offset: 0 }).toString()).toBe('')
    const search = searchFromFilters({ status: 'pending', event: 'ping', offset: 20 })
    expect(search.toString()).toBe('status=pending&event=ping&offset=20')
    expect(filtersFromSearch(search)).toEqual({ status: 'pending', event: 'ping', offset: 20 })
  })
})

function Picker({ initial }: { initial: PickableEvent[] }) {
  const [value, setValue] = useState(initial)
  return (
    <>
      <EventPicker value={value} onChange={setValue} />
      <output aria-label="chosen">{value.join(',')}</output>
    </>
  )
}

describe('the event picker', () => {
  it('edits what a subscription picks, without the ping the server lists', () => {
    expect(pickable(['ping', 'asset.deleted', 'member.joined'])).toEqual(['asset.deleted', 'member.joined'])
  })

  it('keeps the events in the table order whatever the clicking order', () => {
    render(<Picker initial={['member.joined']} />)
    fireEvent.click(screen.getByLabelText(/asset\.deleted/))
    fireEvent.click(screen.getByLabelText(/asset\.created/))
    expect(screen.getByLabelText('chosen').textContent).toBe('asset.created,asset.deleted,member.joined')
    fireEvent.click(screen.getByLabelText(/member\.joined/))
    expect(screen.getByLabelText('chosen').textContent).toBe('asset.created,asset.deleted')
  })

  it('selects and clears every event with "All events"', () => {
    render(<Picker initial={[]} />)
    const all = screen.getByLabelText('All events') as HTMLInputElement
    expect(all.checked).toBe(false)
    fireEvent.click(all)
    expect(screen.getByLabelText('chosen').textContent?.split(',')).toHaveLength(8)
    expect(all.checked).toBe(true)
    fireEvent.click(all)
    expect(screen.getByLabelText('chosen').textContent).toBe('')
  })
})
