import { Elysia } from 'elysia'
import { access } from '../../plugins/access'
import { data, Deleted, IdParams, list, authErrors, withConflict, withNotFound, routeDoc } from '../shared'
import { Category, CategoryCreate, CategoryListQuery, CategoryUpdate } from './model'
import { createCategory, deleteCategory, getCategory, listCategories, updateCategory } from './service'

const doc = routeDoc('Catalog')
const write = { scope: 'categories:write', owns: 'categories' } as const

export const categoryRoutes = new Elysia({ prefix: '/api/v1/categories' })
  .use(access)
  .get('', ({ ctx, query }) => listCategories({ ctx, input: query }), {
    access: { scope: 'categories:read' },
    query: CategoryListQuery,
    response: { 200: list(Category), ...authErrors },
    detail: doc('List categories, ordered by position'),
  })
  .get('/:id', ({ ctx, params }) => ({ data: getCategory({ ctx, input: { id: params.id } }) }), {
    access: { scope: 'categories:read', owns: 'categories' },
    params: IdParams,
    response: { 200: data(Category), ...withNotFound },
    detail: doc('Get a category', ' An inactive category is returned.'),
  })
  .post(
    '',
    ({ ctx, body, set }) => {
      set.status = 201
      return { data: createCategory({ ctx, input: body }) }
    },
    {
      access: { scope: 'categories:write' },
      body: CategoryCreate,
      response: { 201: data(Category), ...withConflict },
      detail: doc('Create a category'),
    },
  )
  .put('/:id', ({ ctx, params, body }) => ({ data: updateCategory({ ctx, input: { ...body, id: params.id } }) }), {
    access: write,
    params: IdParams,
    body: CategoryUpdate,
    response: { 200: data(Category), ...withConflict },
    detail: doc('Update a category (partial)'),
  })
  .delete('/:id', ({ ctx, params }) => ({ data: deleteCategory({ ctx, input: { id: params.id } }) }), {
    access: write,
    params: IdParams,
    response: { 200: Deleted, ...withNotFound },
    detail: doc('Delete a category; its products keep existing with no category'),
  })
