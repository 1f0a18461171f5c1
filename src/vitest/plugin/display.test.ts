import { expect, test } from 'vitest'
import { disableBrowserOpeningWithoutDesktop, hasDesktop } from './display.ts'

test('a Linux machine has a desktop only with a display; macOS and Windows always', () => {
  expect(hasDesktop({}, 'linux')).toBe(false)
  expect(hasDesktop({ DISPLAY: ' ' }, 'linux')).toBe(false)
  expect(hasDesktop({ DISPLAY: ':0' }, 'linux')).toBe(true)
  expect(hasDesktop({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBe(true)
  expect(hasDesktop({}, 'darwin')).toBe(true)
  expect(hasDesktop({}, 'win32')).toBe(true)
})

test('without a desktop Vite is told not to open a browser, unless somebody chose one', () => {
  const bare: NodeJS.ProcessEnv = {}
  expect(disableBrowserOpeningWithoutDesktop(bare, 'linux')).toBe(true)
  expect(bare.BROWSER).toBe('none')
  const chosen: NodeJS.ProcessEnv = { BROWSER: 'firefox' }
  expect(disableBrowserOpeningWithoutDesktop(chosen, 'linux')).toBe(false)
  expect(chosen.BROWSER).toBe('firefox')
  expect(disableBrowserOpeningWithoutDesktop({ DISPLAY: ':0' }, 'linux')).toBe(false)
  expect(disableBrowserOpeningWithoutDesktop({}, 'darwin')).toBe(false)
})
