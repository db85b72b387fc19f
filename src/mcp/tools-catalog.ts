/** The tools for the store's settings, products and categories (tools.ts lists them all). */
import { StoreUpdate } from '../modules/store-settings'
import { ProductCreate, ProductListQuery, ProductUpdate } from '../modules/products'
import { CategoryCreate, CategoryListQuery, CategoryUpdate } from '../modules/categories'
import { LIST, tool, type ToolDef } from './tool-def'

export const CATALOG_TOOLS: ToolDef[] = [
  tool({
    name: 'get_store',
    title: 'Get store settings',
    summary:
      'Get the store this API key belongs to: name, slug, WhatsApp number, currency, message template, ' +
      'description, language, published/maintenance flags, plan and status, and how many products, ' +
      'categories and orders it holds (productCount, categoryCount, orderCount).',
    method: 'GET',
    path: '/api/v1/store',
  }),
  tool({
    name: 'update_store',
    title: 'Update store settings',
    summary: 'Partially update store settings; only the fields given change. Duplicate slug → 409 DUPLICATE_SLUG.',
    method: 'PUT',
    path: '/api/v1/store',
    body: StoreUpdate,
  }),

  tool({
    name: 'list_products',
    title: 'List products',
    summary:
      'List products, newest first, each with its active variants, stock/inStock and images (by URL, ' +
      'in order). Only active products unless isActive is "false" or "all"; ' +
      `createdSince/updatedSince filter by ISO date. ${LIST}`,
    method: 'GET',
    path: '/api/v1/products',
    query: ProductListQuery,
  }),
  tool({
    name: 'get_product',
    title: 'Get a product',
    summary:
      'Get one product by id with its active variants, stock/inStock and images by URL (an inactive ' +
      'product is returned; a deleted one is NOT_FOUND).',
    method: 'GET',
    path: '/api/v1/products/:id',
  }),
  tool({
    name: 'create_product',
    title: 'Create a product',
    summary:
      'Create a product. name and price (major units) are required; ' +
      'slug derives from the name when absent (duplicate → 409 DUPLICATE_SLUG); variants [{ name, price, ' +
      'stock }] need a paid plan. stock (on the product without variants, ' +
      'or per variant) is a count of units or null = not tracked; ' +
      'the checkout refuses more than is left (409 OUT_OF_STOCK). Free plan: at most 10 products.',
    method: 'POST',
    path: '/api/v1/products',
    body: ProductCreate,
  }),
  tool({
    name: 'update_product',
    title: 'Update a product',
    summary:
      'Partially update a product by id (e.g. { id, stock: 12 } to restock; ' +
      'stock null stops tracking). A variants array updates variants that carry an id (a variant without ' +
      'stock keeps its count), creates those without and deactivates the rest.',
    method: 'PUT',
    path: '/api/v1/products/:id',
    body: ProductUpdate,
  }),
  tool({
    name: 'delete_product',
    title: 'Delete a product',
    summary: 'Soft-delete a product by id: it disappears from lists and GET, orders keep referring to it.',
    method: 'DELETE',
    path: '/api/v1/products/:id',
  }),

  tool({
    name: 'list_categories',
    title: 'List categories',
    summary: `List categories ordered by position; all of them unless isActive is "true" or "false". ${LIST}`,
    method: 'GET',
    path: '/api/v1/categories',
    query: CategoryListQuery,
  }),
  tool({
    name: 'create_category',
    title: 'Create a category',
    summary:
      'Create a category (name required; slug derives from it; ' +
      'duplicate slug → 409 DUPLICATE_SLUG). Free plan: at most 3 categories.',
    method: 'POST',
    path: '/api/v1/categories',
    body: CategoryCreate,
  }),
  tool({
    name: 'update_category',
    title: 'Update a category',
    summary: 'Partially update a category by id.',
    method: 'PUT',
    path: '/api/v1/categories/:id',
    body: CategoryUpdate,
  }),
  tool({
    name: 'delete_category',
    title: 'Delete a category',
    summary: 'Delete a category by id; its products keep existing with categoryId null.',
    method: 'DELETE',
    path: '/api/v1/categories/:id',
  }),
]
