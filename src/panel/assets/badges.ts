/** A navigation link's count (views/chrome.ts draws the same): words for screen readers, a badge for the eye. */
export const countText = (n: number) => (n >= 100 ? '99+' : String(n))

export function setBadge(link: HTMLElement, n: number): void {
  for (const old of link.querySelectorAll('.badge, .sr-only')) old.remove()
  if (n <= 0) return
  const badge = document.createElement('span')
  badge.className = 'badge'
  badge.setAttribute('aria-hidden', 'true')
  badge.textContent = countText(n)
  const words = document.createElement('span')
  words.className = 'sr-only'
  words.textContent = ` ${(link.dataset.badgeWords ?? '{n}').replace('{n}', countText(n))}`
  link.append(words, ' ', badge)
}
