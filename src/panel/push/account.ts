/** The Account page's notifications section, built from the person's devices and preferences. */
import { devicesOf, preferencesOf } from '../../modules/push'
import { iso } from '../../lib/time'
import type { Html } from '../../shop/html'
import type { PanelEnv } from '../env'
import { deviceName } from '../respond'
import type { Frame } from '../views'
import { notificationsSection } from '../views/notifications'
import type { Words } from '../words'

export function notificationsOf(env: Pick<PanelEnv, 'db'>, f: Frame, userId: string): Html {
  return notificationsSection(f, {
    devices: devicesOf(env, userId).map((d) => ({
      id: d.id,
      name: deviceName(d.userAgent, f.w.account.unknownDevice),
      since: iso(d.createdAt),
    })),
    prefs: preferencesOf(env, userId),
  })
}

/** The notice after one of the section's forms (`?done=`), if it was one of them. */
export function pushNotice(w: Words, done: string | undefined): string | undefined {
  if (done === 'push-test') return w.push.testSent
  if (done === 'push-none') return w.push.noDevicesForTest
  if (done === 'push-prefs') return w.push.prefsSaved
  if (done === 'push-off') return w.push.deviceOff
  return undefined
}
