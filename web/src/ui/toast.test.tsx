import { act, fireEvent, render, screen } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { navigate } from 'wouter/use-browser-location'
import { ToastProvider, useToast } from './toast'

/** A page whose buttons raise toasts, one of them as the action that moves to another page. */
function Page() {
  const toast = useToast()
  return (
    <>
      <button type="button" onClick={() => toast.error(new Error('The upload failed.'))}>
        Fail
      </button>
      <button
        type="button"
        onClick={() => {
          toast.success('Deleted “Logo”.')
          navigate('/')
        }}
      >
        Delete and go back
      </button>
    </>
  )
}

function renderPage() {
  render(
    <ToastProvider>
      <Page />
    </ToastProvider>,
  )
}

const toastTexts = () => [...document.querySelectorAll('.toast span')].map((toast) => toast.textContent)

describe('toasts', () => {
  beforeEach(() => navigate('/assets/a1'))

  it('clear when the user moves to another page', () => {
    renderPage()
    fireEvent.click(screen.getByRole('button', { name: 'Fail' }))
    expect(screen.getByRole('alert').textContent).toContain('The upload failed.')
    act(() => navigate('/collections'))
    expect(toastTexts()).toEqual([])
  })

  it('keep the one that the navigating action raised, and only that one', () => {
    renderPage()
    fireEvent.click(screen.getByRole('button', { name: 'Fail' }))
    fireEvent.click(screen.getByRole('button', { name: 'Delete and go back' }))
    expect(location.pathname).toBe('/')
    expect(toastTexts()).toEqual(['Deleted “Logo”.'])
  })

  it('stay while the page stays', () => {
    renderPage()
    fireEvent.click(screen.getByRole('button', { name: 'Fail' }))
    act(() => navigate('/assets/a1?tab=details'))
    expect(toastTexts()).toEqual(['The upload failed.'])
  })
})
