import { event } from '../shared/events'
import type { reviewView } from './service'

export const reviewEvents = {
  'review.created': event<ReturnType<typeof reviewView>>(),
}
