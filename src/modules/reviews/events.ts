import { event } from '../shared/events'
import type { reviewView } from './service'

declare module '../../kernel/events' {
  interface EventMap {
    'review.created': ReturnType<typeof reviewView>
  }
}

export const reviewEvents = {
  'review.created': event<ReturnType<typeof reviewView>>(),
}
