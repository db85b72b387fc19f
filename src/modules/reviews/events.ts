import { event } from '../shared'
import type { reviewView } from './service'

declare module '../../kernel/events' {
  interface EventMap {
    'review.created': ReturnType<typeof reviewView>
  }
}

export const reviewEvents = {
  'review.created': event<ReturnType<typeof reviewView>>(),
}
