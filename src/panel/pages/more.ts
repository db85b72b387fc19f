/**
 * The More page (`/admin/more`), the phone's fourth tab: every link the person's role allows, the
 * account, the store switcher and signing out — the header's and side navigation's contents, which
 * a phone's screen leaves out. A plain page, so it works without the script.
 */
import { Elysia } from 'elysia'
import { access } from '../../plugins/access'
import { MORE_PATH } from '../nav'
import { layout, moreBody } from '../views'
import { render, type Handler } from './plugin-kit'

export function morePage() {
  return new Elysia()
    .use(access)
    .get(MORE_PATH, (raw) => render(raw as unknown as Handler, 200, (f) => layout(f, f.w.more, moreBody(f))), {
      access: { panel: 'member' },
      detail: { hide: true },
    })
}
