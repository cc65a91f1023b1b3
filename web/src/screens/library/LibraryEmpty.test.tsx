import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { LibraryEmpty } from './LibraryEmpty'

describe('the empty library', () => {
  it('leads with the upload, a primary action, and shows the curl command below it', () => {
    render(<LibraryEmpty />)
    const upload = screen.getByRole('link', { name: 'Upload images' })
    expect(upload.getAttribute('href')).toBe('/upload')
    expect(upload.classList.contains('primary')).toBe(true)
    const actions = screen.getAllByRole('link').map((link) => link.textContent)
    expect(actions[0]).toBe('Upload images')
    const command = screen.getByLabelText('Push an image with curl')
    expect(upload.compareDocumentPosition(command) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    expect(screen.getByRole('heading', { name: 'Or push them from a script' }).compareDocumentPosition(command) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
  })
})
