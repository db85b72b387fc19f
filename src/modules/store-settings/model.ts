import { t } from 'elysia'
import { Id, Slug, Timestamp } from '../shared'

export const Language = t.Union([t.Literal('es'), t.Literal('en'), t.Literal('pt')], {
  description: "The storefront's words and the default WhatsApp template",
  error: "language must be 'es', 'en' or 'pt'",
})
export type Language = typeof Language.static

/** A year: an order pending longer has been forgotten by everyone. */
export const MAX_PENDING_TTL_HOURS = 8760

export const StoreSettings = t.Object(
  {
    id: Id,
    name: t.String(),
    slug: t.String(),
    whatsappNumber: t.Nullable(t.String({ description: 'E.164' })),
    currency: t.String({ description: 'ISO 4217 code' }),
    whatsappTemplate: t.Nullable(
      t.String({
        description:
          'Placeholders, each accepted under any of its names: {store}/{tienda}/{loja}, ' +
          '{customer}/{nombre}/{cliente}, {items}/{productos}/{itens}, {total}, {order}/{pedido}, ' +
          '{shipping}/{envio}/{frete}, {discount}/{descuento}/{desconto}, ' +
          '{address}/{direccion}/{endereco}, {status_url}. A line whose placeholders are all empty (no ' +
          'shipping, discount or address) is left out. null means the default template of the store ' +
          'language',
      }),
    ),
    description: t.Nullable(t.String()),
    language: Language,
    isPublished: t.Boolean(),
    isMaintenance: t.Boolean(),
    pendingOrderTtlHours: t.Integer({
      minimum: 0,
      maximum: MAX_PENDING_TTL_HOURS,
      description: 'Hours after which an order still pending is cancelled and its stock put back; 0 = never',
    }),
    showStockCount: t.Boolean({
      description: 'Whether the public store read shows exact stock counts (inStock is always shown)',
    }),
    timezone: t.String({
      description:
        "The store's IANA time zone (e.g. America/Bogota): the dates sellers and customers read, " +
        "and the statistics' days",
    }),
    plan: t.Union([t.Literal('free'), t.Literal('pro'), t.Literal('lifetime')]),
    status: t.Union([t.Literal('active'), t.Literal('suspended')]),
    productCount: t.Integer({ minimum: 0, description: 'Products not deleted (active or not)' }),
    categoryCount: t.Integer({ minimum: 0, description: 'Categories (active or not)' }),
    orderCount: t.Integer({ minimum: 0, description: 'Orders in every status' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Store' },
)

export const MAX_TEMPLATE_LENGTH = 1000

/** Partial. `plan` and `status` are not writable here (billing owns them); unknown fields are ignored. */
export const StoreUpdate = t.Object({
  name: t.Optional(t.String({ minLength: 1, maxLength: 200 })),
  slug: t.Optional(Slug),
  description: t.Optional(t.Nullable(t.String({ maxLength: 5000 }))),
  whatsappNumber: t.Optional(
    t.Nullable(t.String({ maxLength: 40, description: 'International form, e.g. +14155550100; stored as E.164' })),
  ),
  currency: t.Optional(
    t.String({ minLength: 3, maxLength: 3, description: 'ISO 4217; locked once the store has priced records' }),
  ),
  whatsappTemplate: t.Optional(t.Nullable(t.String({ maxLength: MAX_TEMPLATE_LENGTH }))),
  language: t.Optional(Language),
  isPublished: t.Optional(t.Boolean()),
  isMaintenance: t.Optional(t.Boolean()),
  pendingOrderTtlHours: t.Optional(
    t.Integer({
      minimum: 0,
      maximum: MAX_PENDING_TTL_HOURS,
      description: 'Default 72; 0 = pending orders never expire',
    }),
  ),
  showStockCount: t.Optional(
    t.Boolean({ description: 'Default false: the public store read shows inStock, not how many are left' }),
  ),
  timezone: t.Optional(
    t.String({
      maxLength: 64,
      description:
        'An IANA time zone name such as America/Bogota; default UTC. An unknown name is 400 (field timezone)',
    }),
  ),
})

export type StoreUpdate = typeof StoreUpdate.static
