/** A stored instant (ISO 8601) as the panel shows it: on the store's clock, in the person's locale. */
import { dateTimeIn } from '../../lib/zone'
import { type Frame, zoneOf } from './frame-base'

export const shownAt = (f: Frame, iso: string): string => dateTimeIn(Date.parse(iso), f.w.shell.locale, zoneOf(f))
