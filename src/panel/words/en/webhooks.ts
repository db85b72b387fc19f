/** The webhooks pages and their delivery log (English). */
export const webhooks = {
  addWebhook: 'Add webhook',
  url: 'URL',
  urlHint: 'A public https address.',
  events: 'Events',
  eventsRequired: 'Pick at least one event.',
  editWebhookOf: (url: string) => `Edit webhook ${url}`,
  editWebhookTitle: (url: string) => `Edit the webhook to ${url}`,
  signingSecret: 'Signing secret',
  rotateText: (hours: number) =>
    `A new secret signs from now on; the old one keeps signing beside it for ${hours} hours, so your receiver can ` +
    `switch without losing messages.`,
  rotateSecret: 'Rotate the secret',
  secretRotated: 'Your new signing secret',
  sendTest: 'Send test event',
  sendTestHint:
    'Sends one webhook.test event to this endpoint only, signed like every event; it shows in the log below.',
  testSent: 'A test event is on its way.',
  deliveries: 'Delivery log',
  viewLogOf: (url: string) => `Delivery log of ${url}`,
  webhookCreated: 'Webhook added',
  secretOnce: 'Its signing secret is shown only once: copy it now.',
  secretShownOnce:
    'This secret was shown once and is not shown again. If it was not copied, rotate it and copy the new one.',
  disable: 'Disable',
  enable: 'Enable',
  disabled: 'Disabled',
  deliveriesOf: (url: string) => `Deliveries to ${url}`,
  deleteWebhook: 'Delete webhook',
  deleteWebhookTitle: (url: string) => `Delete the webhook to ${url}?`,
  deleteWebhookText: 'Its delivery log is deleted too.',
  noWebhooks: 'No webhooks yet.',
  noDeliveries: 'No deliveries yet.',
  event: 'Event',
  attempts: 'Attempts',
  response: 'Response',
  nextAttempt: 'Next attempt',
  refreshLog: 'Refresh the log',
  error: 'Error',
  retry: 'Retry',
  retryDelivery: (id: string) => `Retry delivery ${id}`,
  retried: 'The delivery will be sent again now.',
  limitReached: (n: number) => `A store can have at most ${n} webhooks.`,
  deliveryStatus: { pending: 'Pending', sending: 'Sending', succeeded: 'Delivered', failed: 'Failed' } as Record<
    string,
    string
  >,
}
