/**
 * The More page (`/admin/more`), the phone's fourth tab: every link the person's role allows, the
 * account, the store switcher and signing out — the header's and side navigation's contents, which
 * a phone's screen leaves out. A plain page, so it works without the script.
 */
import { MORE_PATH } from '../nav'
import { panelPlugin, panelRoute } from '../route'
import { layout, moreBody } from '../views'

export function morePage() {
  return panelPlugin('morePage', [
    panelRoute({ method: 'get', path: MORE_PATH, need: 'member' }, ({ render }) =>
      render(200, (f) => layout(f, f.w.shell.more, moreBody(f))),
    ),
  ])
}
